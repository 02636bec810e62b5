import Dispatch

/// A blocking wait until a deadline by a `RecorderClock`, for a thread of its own (a drain, a
/// flush's backoff): it waits on a semaphore, so `poke()` (a wake, a stop) ends it at once, and
/// a `TestClock`'s moves have it look at the time again. Nothing in it sleeps uncancellably.
package final class ClockWait: Sendable {
    package let clock: any RecorderClock
    private let signal = DispatchSemaphore(value: 0)

    package init(clock: any RecorderClock) {
        self.clock = clock
        clock.whenAdvanced { [weak self] in self?.poke() }
    }

    /// Has the wait look at `done` and the time again now.
    package func poke() {
        signal.signal()
    }

    /// Waits until `deadline` by the clock, or until `done()` (looked at first and after each poke)
    /// says to stop waiting. Returns whether the deadline came.
    @discardableResult
    package func wait(until deadline: ContinuousClock.Instant, done: () -> Bool = { false }) -> Bool {
        while true {
            if done() { return false }
            let left = clock.remaining(until: deadline)
            if left <= .zero { return true }
            // (capped at an hour: a wait is looked at again, never trusted for days)
            let seconds = min(Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18, 3600)
            _ = signal.wait(timeout: .now() + seconds)
            // Several pokes in a row need one look.
            while signal.wait(timeout: .now()) == .success {}
        }
    }

    /// Waits `seconds` by the clock (see `wait(until:done:)`).
    @discardableResult
    package func wait(seconds: Double, done: () -> Bool = { false }) -> Bool {
        wait(until: clock.now + .milliseconds(Int64(seconds * 1000)), done: done)
    }
}
