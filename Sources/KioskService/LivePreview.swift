import Settings
import Shooting
import Synchronization
import SystemSupport
import KioskWords
package import KioskHTTP
import KioskState
import Failures

/// The booth's mirror: the camera's latest picture as a JPEG, for the live stream and for one
/// picture at a time. While idle the preview camera is started (and kept while somebody asks);
/// while recording the shot's own pictures are shown. A wait for a picture is timed by the real
/// clock, as the camera's pictures come: no test moves a camera's frames.
package final class LivePreview: Sendable {
    private let manager: CameraManager
    private let request: ShotRequest
    /// The guest's live mirror: under a branding frame the picture is mirrored here and the frame
    /// reads as recorded; without one the page mirrors the picture itself.
    private let mirror: SnapshotEncoder
    /// One picture at a time (the operator's preview): as the camera sees it, the frame on it.
    private let snapshots: SnapshotEncoder
    private let clock = SystemClock()
    /// Set when the kiosk stops: the live streams end, so the HTTP server can close.
    private let closing = Atomic<Bool>(false)

    init(manager: CameraManager, settings: KioskSettings) {
        self.manager = manager
        request = settings.previewRequest
        mirror = SnapshotEncoder(for: settings.shot, mirrored: true)
        snapshots = SnapshotEncoder(for: settings.shot)
    }

    /// Whether the live stream's pictures are mirrored already (a branding frame is set).
    var streamIsMirrored: Bool { mirror.mirrors }

    /// Where the branding frame of the live stream's last picture leaves it clear.
    var streamFrameClearArea: FrameClearArea? { mirror.frameClearArea }

    /// Ends the live streams and any wait for a picture (the kiosk is stopping).
    func close() {
        closing.store(true, ordering: .relaxed)
        manager.preview.changed.signal()
    }

    /// A camera picture other than `serial` (0: any), at most 2 s old; waits up to `wait` for
    /// one, and gives up at once when the kiosk is closing.
    private func picture(after serial: UInt64 = 0, wait: Duration) async -> PreviewTap.Picture? {
        await manager.wantPreview(request: request)
        let deadline = clock.now + wait
        let tap = manager.preview
        while !closing.load(ordering: .relaxed) {
            // (the count first: a picture taken between the look and the wait still wakes it)
            let seen = tap.changed.generation
            if let newest = tap.picture(maximumAge: 2), newest.serial != serial { return newest }
            let left = clock.now.duration(to: deadline)
            guard left > .zero, !Task.isCancelled else { return nil }
            // Asleep until the tap takes a picture, the kiosk closes, or the time is up.
            await tap.changed.wait(after: seen, timeout: left, clock: clock)
        }
        return nil
    }

    /// The next preview JPEG after picture `serial` (0: any), for the live stream: waits up to
    /// `wait` for a newer picture; nil when none came (the camera stopped) or the kiosk is closing.
    func nextJPEG(after serial: UInt64, wait: Duration = .seconds(2)) async -> (jpeg: [UInt8], serial: UInt64, ageMilliseconds: Int64)? {
        guard let picture = await picture(after: serial, wait: wait),
              let jpeg = try? await mirror.jpeg(of: picture) else { return nil }
        return (jpeg, picture.serial, (MonotonicClock.nowMicroseconds() - picture.copiedAtMicroseconds) / 1000)
    }

    /// A JPEG of a recent camera picture; waits up to `wait` for the first picture.
    package func jpeg(wait: Duration = .seconds(3)) async throws(APIError) -> [UInt8] {
        guard let picture = await picture(wait: wait) else {
            let state = await manager.recordState
            if case .cameraMissing(let why) = state {
                throw APIError(.recorder(.unavailable), "no preview: the camera is missing (\(why.text()))")
            }
            throw APIError(.recorder(.unavailable), "no preview picture yet (state: \(state.name)); try again in a moment.")
        }
        do {
            return try await snapshots.jpeg(of: picture)
        } catch {
            throw APIError(.recorder(.unavailable), "no preview: \(error)")
        }
    }
}
