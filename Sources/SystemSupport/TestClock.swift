package import FoundationEssentials
import Synchronization

/// A clock that stands still until `advance(by:)` moves it: for tests of timed rules. A sleeper
/// wakes when the clock is moved to or past its deadline (or its task is cancelled: it throws
/// `CancellationError`, as `Task.sleep` does); nothing wakes by the machine's time passing.
///
/// A move wakes each sleeper once: a loop that sleeps a second at a time and is moved ten seconds
/// goes round once, as a program that was suspended for ten seconds does. A test that moves the
/// clock for a task's next sleep waits first until that task sleeps (`waitForSleepers`), and
/// afterwards until it sleeps again, which says the task did what the move was for.
package final class TestClock: RecorderClock {
    package typealias Instant = ContinuousClock.Instant

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var offset = Duration.zero
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps begun since the clock was made (a test waits for the next one).
        var sleepsBegun: UInt64 = 0
        var onAdvance: [@Sendable () -> Void] = []
    }

    private let start: Instant
    private let startDate: Date
    private let state = Mutex(State())
    /// Signalled whenever a sleep begins or ends, for `waitForSleepers`.
    private let changed = ChangeSignal()

    /// A clock standing at `date` (its instants start at the real clock's now).
    package init(at date: Date = Date()) {
        start = .now
        startDate = date
    }

    package var now: Instant { start + state.withLock { $0.offset } }

    package var date: Date {
        let moved = state.withLock { $0.offset }
        return startDate.addingTimeInterval(Double(moved.components.seconds) + Double(moved.components.attoseconds) / 1e18)
    }

    package var minimumResolution: Duration { .zero }

    /// Moves the clock on and wakes every sleeper whose deadline it reached (then runs what
    /// `whenAdvanced` registered: a blocking waiter on a thread looks at the time again).
    package func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go back")
        let (woken, hooks) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], [@Sendable () -> Void]) in
            state.offset += duration
            let now = start + state.offset
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return (due.values.map(\.continuation), state.onAdvance)
        }
        for continuation in woken { continuation.resume() }
        for hook in hooks { hook() }
        if !woken.isEmpty { changed.signal() }
    }

    /// Moves the clock to `instant` (nothing when it is there already or past it).
    package func advance(to instant: Instant) {
        let left = now.duration(to: instant)
        if left > .zero { advance(by: left) }
    }

    /// Runs `hook` after every move of the clock: for work on a thread of its own that waits with
    /// a timeout of its own (a semaphore, a condition) and must look at `now` again.
    package func whenAdvanced(_ hook: @escaping @Sendable () -> Void) {
        state.withLock { $0.onAdvance.append(hook) }
    }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= start + state.offset { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    state.sleepsBegun &+= 1
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) } else { changed.signal() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many tasks are asleep on this clock now.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How many sleeps have begun since the clock was made.
    package var sleepsBegun: UInt64 { state.withLock { $0.sleepsBegun } }

    /// The earliest deadline a sleeper waits for, if any sleeps.
    package var nextDeadline: Instant? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Returns once at least `count` tasks sleep on this clock (true), or after `timeout` of real
    /// time (false): a test moves the clock only once the task it moves it for is asleep.
    @discardableResult
    package func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(60)) async -> Bool {
        await waitUntil(timeout: timeout) { $0.sleepers.count >= count }
    }

    /// Returns once more than `begun` sleeps have begun (true; `sleepsBegun` read before the move),
    /// or after `timeout` of real time (false): the task a move woke did its work and sleeps again.
    @discardableResult
    package func waitForSleep(after begun: UInt64, timeout: Duration = .seconds(60)) async -> Bool {
        await waitUntil(timeout: timeout) { $0.sleepsBegun > begun }
    }

    private func waitUntil(timeout: Duration, _ done: (State) -> Bool) async -> Bool {
        await changed.wait(until: { state.withLock { done($0) } }, timeout: timeout)
    }
}
