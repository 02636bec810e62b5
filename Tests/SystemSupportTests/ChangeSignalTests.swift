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

    /// How a wait ended, as the waiter saw it when it returned.
    enum Ending: Equatable, Sendable {
        /// The count it woke to, and how far the test's clock had been moved.
        case woke(generation: UInt64, clockMoved: Duration, cancelled: Bool)
    }

    /// The endings the waiting tasks saw, in the order they came.
    final class Endings: Sendable {
        private let list = Mutex<[Ending]>([])
        func append(_ ending: Ending) { list.withLock { $0.append(ending) } }
        var all: [Ending] { list.withLock { $0 } }
    }

    /// A change made before the wait begins is not missed, and a change already seen does not end
    /// a wait: each wait ends with the count its own change made, in order, one change each, on a
    /// clock that never moves; no time-limit sleep is left behind.
    @Test func aChangeBeforeTheWaitIsNotMissed() async {
        let signal = ChangeSignal()
        let clock = TestClock()
        let start = clock.now
        var endings: [Ending] = []
        for _ in 0..<3 {
            let seen = signal.generation
            signal.signal()
            await signal.wait(after: seen, timeout: .seconds(600), clock: clock)
            endings.append(.woke(generation: signal.generation, clockMoved: clock.now - start, cancelled: false))
        }
        // The count now stands at 3 and the waiter has seen it: only a fourth change may end this.
        let ended = Endings()
        let seen = signal.generation
        let waiter = Task {
            await signal.wait(after: seen, timeout: .seconds(600), clock: clock)
            ended.append(.woke(generation: signal.generation, clockMoved: clock.now - start, cancelled: Task.isCancelled))
        }
        // Its time limit asleep on the clock says the waiter is inside its wait.
        #expect(await clock.waitForSleepers(1, timeout: .seconds(10)))
        let beforeTheChange = ended.all
        signal.signal()
        await waiter.value
        #expect(endings == (1...3).map { .woke(generation: $0, clockMoved: .zero, cancelled: false) })
        #expect(beforeTheChange.isEmpty)
        #expect(ended.all == [.woke(generation: 4, clockMoved: .zero, cancelled: false)])
        #expect(clock.sleeperCount == 0)
    }

    /// A wait with no change ends at its time limit (not a second before) and at its task's
    /// cancellation, with the count unchanged, once each, in that order; the time-limit sleep is
    /// not left behind.
    @Test func theTimeLimitAndCancellationEndAWait() async {
        let signal = ChangeSignal()
        let clock = TestClock()
        let start = clock.now
        let ended = Endings()
        let timed = Task {
            await signal.wait(after: signal.generation, timeout: .seconds(600), clock: clock)
            ended.append(.woke(generation: signal.generation, clockMoved: clock.now - start, cancelled: Task.isCancelled))
        }
        #expect(await clock.waitForSleepers(1, timeout: .seconds(10)))
        clock.advance(by: .seconds(599))
        let aSecondShort = (ended.all, clock.sleeperCount)
        clock.advance(by: .seconds(1))
        await timed.value
        let cancelled = Task {
            await signal.wait(after: signal.generation, timeout: .seconds(600), clock: clock)
            ended.append(.woke(generation: signal.generation, clockMoved: clock.now - start, cancelled: Task.isCancelled))
        }
        #expect(await clock.waitForSleepers(1, timeout: .seconds(10)))
        cancelled.cancel()
        await cancelled.value
        #expect(aSecondShort.0.isEmpty && aSecondShort.1 == 1)
        #expect(ended.all == [.woke(generation: 0, clockMoved: .seconds(600), cancelled: false),
                                          .woke(generation: 0, clockMoved: .seconds(600), cancelled: true)])
        #expect(clock.sleeperCount == 0)
        // The machine's clock too: a short limit ends the wait with nothing changed.
        await signal.wait(after: signal.generation, timeout: .milliseconds(50))
        #expect(signal.generation == 0)
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
