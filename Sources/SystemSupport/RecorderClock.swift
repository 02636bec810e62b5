package import FoundationEssentials

/// The clock a timed rule counts by, handed in to whatever waits or measures (a countdown, a
/// heartbeat, a question's time on screen, a share window, a retry's backoff): the real one in
/// the program (`SystemClock`), a `TestClock` in tests, which stands still until the test moves
/// it, so an hour's rule is tested in no time and a loaded machine's slowness moves nothing.
///
/// It is Swift's own `Clock` (so `sleep(for:)`, `sleep(until:)`, `measure` and deadlines work as
/// with `ContinuousClock`) with `ContinuousClock`'s instants, so a stored instant means the same
/// under either, and with a wall-clock `date` for what is written down and read after a restart
/// (both move together on a test clock).
package protocol RecorderClock: Clock, Sendable where Instant == ContinuousClock.Instant {
    /// Now, as a date (for what is written down; never for measuring a span: it can jump).
    var date: Date { get }

    /// Runs `hook` after every jump of the clock (a `TestClock`'s moves): for work on a thread of
    /// its own that waits with a timeout of its own (a semaphore) and must look at `now` again.
    /// A clock that only moves with time never calls it.
    func whenAdvanced(_ hook: @escaping @Sendable () -> Void)
}

extension RecorderClock {
    package func whenAdvanced(_ hook: @escaping @Sendable () -> Void) {}

    /// This clock for an API that takes any clock of `Duration` (the compiler does not upcast
    /// `any RecorderClock` by itself).
    package var asClock: any Clock<Duration> { self }

    /// How long from now until `deadline` (negative once it passed).
    package func remaining(until deadline: Instant) -> Duration {
        now.duration(to: deadline)
    }
}

/// The real clock: `ContinuousClock` (monotonic, counting while the machine sleeps) and `Date()`.
package struct SystemClock: RecorderClock {
    package typealias Instant = ContinuousClock.Instant

    package init() {}

    package var now: Instant { .now }
    package var date: Date { Date() }
    package var minimumResolution: Duration { ContinuousClock().minimumResolution }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}

extension RecorderClock where Self == SystemClock {
    /// The real clock (`clock: any RecorderClock = .system`).
    package static var system: SystemClock { SystemClock() }
}
