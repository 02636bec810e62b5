import Foundation
import Synchronization
import Testing
@testable import SystemSupport

/// The drains' thread: a pass, then a wait until the pass's deadline by the clock handed in, a
/// wake or a stop; driven by a `TestClock`, so an hour's wait is tested in no time.
@Suite struct DrainThreadTests {
    /// Waits for `condition` by the machine's time (the thread is real), failing after `seconds`.
    private func within(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            if ContinuousClock.now > end { return false }
            usleep(5_000)
        }
        return true
    }

    @Test func passesAtTheClocksDeadlineOnAWakeAndNotAfterAStop() {
        let clock = TestClock()
        let passes = Mutex(0)
        let thread = DrainThread(name: "test-drain", clock: clock)
        thread.start {
            passes.withLock { $0 += 1 }
            return clock.now + .seconds(3600)
        }
        // Started once only: a second start is no second thread.
        thread.start { passes.withLock { $0 += 100 }; return clock.now }
        #expect(within { passes.withLock { $0 } == 1 }, "the first pass comes at once")
        // Not before the deadline: 59 minutes by the clock is no pass.
        clock.advance(by: .seconds(59 * 60))
        usleep(100_000)
        #expect(passes.withLock { $0 } == 1)
        // The deadline reached by the clock (no machine time passes): the next pass.
        clock.advance(by: .seconds(60))
        #expect(within { passes.withLock { $0 } == 2 }, "the hour's pass, by the clock")
        // A wake ends the wait.
        thread.wake()
        #expect(within { passes.withLock { $0 } == 3 }, "the woken pass")
        // A stop ends the wait at once, and no pass follows.
        let began = ContinuousClock.now
        thread.stop(timeout: 30)
        #expect(ContinuousClock.now - began < .seconds(20), "the stop did not wait out the hour")
        clock.advance(by: .seconds(7200))
        thread.wake()
        usleep(100_000)
        #expect(passes.withLock { $0 } == 3)
    }

    @Test func isIdleOnlyBetweenPassesWithNoWakePending() async {
        let clock = TestClock()
        let passes = Mutex(0)
        let gate = DispatchSemaphore(value: 0)
        let thread = DrainThread(name: "test-idle", clock: clock)
        defer { thread.stop(timeout: 30) }
        // A wake before the start: the first pass is followed by a second at once.
        thread.wake()
        thread.start {
            passes.withLock { $0 += 1 }
            gate.wait()
            return clock.now + .seconds(3600)
        }
        // During the first pass it is not idle.
        #expect(await !thread.waitUntilIdle(timeout: .milliseconds(300)), "idle during a pass")
        gate.signal()
        // Between the passes the pending wake starts the second at once: still not idle.
        #expect(await !thread.waitUntilIdle(timeout: .milliseconds(300)), "idle with a wake pending")
        #expect(within { passes.withLock { $0 } == 2 }, "the woken pass")
        gate.signal()
        #expect(await thread.waitUntilIdle(), "not idle after the passes")
        #expect(passes.withLock { $0 } == 2)
    }
}
