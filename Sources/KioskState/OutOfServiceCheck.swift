package import FoundationEssentials
package import Shooting
import KioskWords

/// Whether the booth can take a guest, judged from what each condition guards (issue 42 item 5):
///
/// - the camera: a booth without one records nothing (`camera-missing`, as the camera's own
///   probe finds it every 2 s);
/// - the disk: less room than one more shot needs where it is recorded, or than its post needs in
///   the outbox (`DiskSpace`): the guest would record and then lose their video;
/// - the store: posts pile up while it fails, and the guests' links wait for it - the oldest
///   queued post has waited `storePatience` while the last attempt failed, and its link opens
///   only from the store (a presigned link, a CDN's). Where the kiosk serves its guests' links
///   itself (its share page, the booth's Wi-Fi) a store away costs a guest nothing: posts wait in
///   the outbox and open from there (docs/venue.md), and only the disk can stop the booth.
package enum OutOfServiceCheck {
    /// How long the oldest post may wait while the store fails before the booth stops inviting
    /// guests whose links would not open: longer than the backoff's first retries and a short
    /// outage, short enough that few guests leave with a dead code.
    static let storePatience = Duration.seconds(300)

    /// The outbox as the check needs it.
    package struct Queue: Sendable, Equatable {
        var count: Int
        /// When the oldest post was queued.
        var oldest: Date
        /// The last attempt's failure; nil when it succeeded (or none was made).
        var lastError: String?
        /// The oldest post's link opens only once it is in the store.
        var linksWaitForUpload: Bool

        package init(count: Int, oldest: Date, lastError: String? = nil, linksWaitForUpload: Bool) {
            self.count = count
            self.oldest = oldest
            self.lastError = lastError
            self.linksWaitForUpload = linksWaitForUpload
        }
    }

    /// Nil when the booth can take a guest; else every cause, with its numbers.
    package static func judge(camera: CameraManager.RecordState, disk: DiskSpace, queue: Queue?, now: Date) -> OutOfService? {
        var causes: [OutOfService.Cause] = []
        if case .cameraMissing(let why) = camera { causes.append(.cameraMissing(why.text())) }
        if let short = disk.short { causes.append(.diskNearlyFull(path: short.path, free: short.free, needed: short.needed)) }
        if let queue, let lastError = queue.lastError, queue.linksWaitForUpload {
            let waiting = Duration.milliseconds(Int64(now.timeIntervalSince(queue.oldest) * 1000))
            if waiting >= storePatience { causes.append(.storeFailing(queued: queue.count, waiting: waiting, lastError: lastError)) }
        }
        return causes.isEmpty ? nil : OutOfService(causes)
    }
}
