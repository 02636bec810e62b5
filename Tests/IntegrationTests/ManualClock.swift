import Synchronization
import SystemSupport

/// A clock that stands still until the test moves it: what waits on it (a check's deadline, a
/// microphone's listening) wakes only when `advance` passes its time, so a test of a time limit
/// takes no time and no load on the machine changes what it sees.
final class ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Duration.zero
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
        var next = 0
    }

    private let state = Mutex(State())
    /// Signalled whenever somebody starts to sleep.
    let slept = ChangeSignal()

    var now: Instant { Instant(offset: state.withLock { $0.now }) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline.offset <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline.offset, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) } else { slept.signal() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on, waking whoever's time has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += duration
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many sleep now.
    var sleeping: Int { state.withLock { $0.sleepers.count } }

    /// How many sleeps were asked for so far (each call of `sleep`, cancelled or not).
    var asked: Int { state.withLock { $0.next } }

    /// Waits (at most `timeout`) until at least `count` sleep on this clock.
    func waitForSleepers(_ count: Int, timeout: Duration = .seconds(60)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            let seen = slept.generation
            if sleeping >= count { return true }
            await slept.wait(after: seen, timeout: .milliseconds(500))
        }
        return sleeping >= count
    }
}
