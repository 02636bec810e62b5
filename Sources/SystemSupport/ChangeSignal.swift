import Synchronization

/// A count of changes that tasks can wait on: whoever changes something calls `signal()` (from
/// any thread: a capture loop, a download), and a waiter sleeps until the count passes the one it
/// has seen, its time is up, or its task is cancelled. No polling: waiting costs nothing until
/// the change comes.
package final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// How many changes there have been.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// One more change: every waiter wakes.
    package func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once the count differs from `seen`, after `timeout`, or when the task is cancelled,
    /// whichever comes first.
    package func wait(after seen: UInt64, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.change(after: seen) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// As `wait(after:timeout:)`, with the time limit counted by `clock` (a test's clock ends the
    /// wait only when the test moves it past the limit).
    package func wait(after seen: UInt64, timeout: Duration, clock: any RecorderClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.change(after: seen) }
            group.addTask { try? await clock.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns true once `condition` holds, checked now and after each change; false when
    /// `timeout` of the machine's time passes first, or the task is cancelled. (The generation is
    /// read before the condition, so a change between the two is not missed.)
    package func wait(until condition: () -> Bool, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = generation
            if condition() { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, !Task.isCancelled else { return false }
            await wait(after: seen, timeout: left)
        }
    }

    private func change(after seen: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    // (changed already, or cancelled before it could wait: no sleep)
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
