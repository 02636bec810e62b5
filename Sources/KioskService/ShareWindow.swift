import Synchronization

/// The one post whose share link the booth's screen may show: the post its current guest just
/// made, while that guest's thank-you is up. The booth's token reaches that post's link and QR
/// code and no other (the operator's reaches any), and the phone that first opens the link while
/// the window is open becomes the one that may delete the post (`ShareClaims`).
///
/// The window opens when the guest posts and closes when the next guest begins (a yes, or a shot
/// asked for) or `lifetime` after the post: the thank-you shows the code for 30 s once the post
/// is in the store, so a few minutes cover a slow upload and a slow phone, and never a day.
final class ShareWindow: Sendable {
    /// How long after a post its guest's thank-you may still show its link.
    static let lifetime = Duration.seconds(180)

    private let clock: KioskClock
    private let open = Mutex<(id: String, at: ContinuousClock.Instant)?>(nil)

    init(clock: KioskClock) {
        self.clock = clock
    }

    /// The guest posted `id`: their thank-you may show its link.
    func open(_ id: String) {
        let now = clock.instant
        open.withLock { $0 = (id, now) }
    }

    /// The next guest began: the last one's link leaves the booth's screen.
    func close() {
        open.withLock { $0 = nil }
    }

    /// Whether post `id`'s link may be shown on the booth's screen now.
    func admits(_ id: String) -> Bool {
        let now = clock.instant
        return open.withLock { window in
            guard let current = window, current.id == id else { return false }
            guard now - current.at < Self.lifetime else {
                window = nil
                return false
            }
            return true
        }
    }
}
