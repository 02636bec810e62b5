package import FoundationEssentials
import Synchronization

/// The time the kiosk's timed rules count by: how long a session may stay idle, how long the
/// booth may show a post's share link, how long a yes lasts. The real clock, or a test's, which
/// stands still (`frozen`) and moves only when the test advances it, so a rule of hours is tested
/// in no time and a loaded machine's slowness moves nothing.
package final class KioskClock: Sendable {
    /// Where a frozen clock stands; nil for the real one.
    private let frozen: (instant: ContinuousClock.Instant, date: Date)?
    private let offset = Mutex(Duration.zero)

    /// The real clock.
    package init() {
        frozen = nil
    }

    /// A clock that stands at `date` until `advance(by:)`.
    package static func frozen(at date: Date = Date()) -> KioskClock {
        KioskClock(frozen: (.now, date))
    }

    private init(frozen: (instant: ContinuousClock.Instant, date: Date)) {
        self.frozen = frozen
    }

    /// Moves the clock on (both its readings).
    package func advance(by duration: Duration) {
        offset.withLock { $0 += duration }
    }

    /// Now, for measuring spans (never goes back).
    package var instant: ContinuousClock.Instant {
        (frozen?.instant ?? .now) + offset.withLock { $0 }
    }

    /// Now, as a date: for what is written down and read again after a restart.
    package var date: Date {
        let moved = offset.withLock { $0 }
        let seconds = Double(moved.components.seconds) + Double(moved.components.attoseconds) / 1e18
        return (frozen?.date ?? Date()).addingTimeInterval(seconds)
    }
}
