import Synchronization
import SystemSupport
import Testing

/// `ChangeSignal`: a waiter wakes for a change, for its time limit, or for its task's
/// cancellation, and a change it has not seen yet never leaves it asleep. Each wait here has a
/// limit of ten minutes, so only the change (or the cancellation) can end it within the test's
/// one-minute limit.
@Suite(.timeLimit(.minutes(1))) struct ChangeSignalTests {
    @Test func aChangeWakesEveryWaiter() async {
        let signal = ChangeSignal()
        let seen = signal.generation
        async let first: Void = signal.wait(after: seen, timeout: .seconds(600))
        async let second: Void = signal.wait(after: seen, timeout: .seconds(600))
        // (both asleep by then, most likely: the change wakes them; one not yet asleep sees the
        // count changed and does not sleep at all)
        try? await Task.sleep(for: .milliseconds(100))
        signal.signal()
        _ = await (first, second)
        #expect(signal.generation == seen + 1)
    }

    @Test func aChangeBeforeTheWaitIsNotMissed() async {
        let signal = ChangeSignal()
        let seen = signal.generation
        signal.signal()
        await signal.wait(after: seen, timeout: .seconds(600))
    }

    @Test func theTimeLimitAndCancellationEndAWait() async {
        let signal = ChangeSignal()
        await signal.wait(after: signal.generation, timeout: .milliseconds(50))
        let waiter = Task { await signal.wait(after: signal.generation, timeout: .seconds(600)) }
        try? await Task.sleep(for: .milliseconds(100))
        waiter.cancel()
        await waiter.value
    }

    /// `wait(until:)`: true at once when the condition holds, true after the change that makes it
    /// hold, false when the time is up with it still false.
    @Test func aConditionIsJudgedNowAndAfterEachChange() async {
        let signal = ChangeSignal()
        #expect(await signal.wait(until: { true }, timeout: .seconds(600)))
        let value = Mutex(0)
        async let reached = signal.wait(until: { value.withLock { $0 } == 2 }, timeout: .seconds(600))
        for _ in 0..<2 {
            try? await Task.sleep(for: .milliseconds(50))
            value.withLock { $0 += 1 }
            signal.signal()
        }
        #expect(await reached)
        #expect(await !signal.wait(until: { value.withLock { $0 } == 3 }, timeout: .milliseconds(100)))
    }
}
