import FoundationEssentials
import Logging
import RecorderCore
import ServiceLifecycle

/// Deletes posts older than `retention.days` from the store: when the kiosk starts, then every
/// hour. A purge cut short (a crash, the store away) is finished by the next one.
struct RetentionService: Service {
    let kiosk: Kiosk
    static let interval = Duration.seconds(3600)

    func run() async throws {
        guard let retention = kiosk.library.share.retention else {
            // Nothing to do; a service that returned would end the group.
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await Self.purge(kiosk, retention)
                try await Task.sleep(for: Self.interval)
            }
        }
    }

    /// One purge, told in the journal and counted.
    static func purge(_ kiosk: Kiosk, _ retention: Retention, now: Date = Date()) async {
        do throws(APIError) {
            let report = try await kiosk.library.purgeExpired(retention, now: now)
            kiosk.metrics.postsExpired(report.deleted)
            if report.deleted > 0 {
                kiosk.logger.notice("retention: deleted \(report.deleted) post(s) created before \(report.cutoff) (retention.days)")
            }
            for (id, why) in report.failed.sorted(by: { $0.key < $1.key }) {
                kiosk.logger.warning("retention: post \(id) is expired but could not be deleted now (tried again within the hour): \(why)")
            }
        } catch {
            kiosk.logger.warning("retention: cannot look for expired posts now (tried again within the hour): \(error.message)")
        }
    }
}
