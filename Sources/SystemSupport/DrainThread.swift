import Dispatch
import Synchronization

/// The thread of a drain (the outbox's, the mail's): one long-lived thread that makes a pass, then
/// waits on a signal until the pass's deadline by a `RecorderClock`, a `wake()` or a `stop()`.
/// Nothing in it sleeps uncancellably: a stop ends any wait at once.
package final class DrainThread: Sendable {
    private struct State {
        var running = false
        var stopping = false
        /// `wake()` was called: the next pass begins without waiting.
        var woken = false
    }

    private let name: String
    /// What the deadlines count by (a `TestClock` in tests: each move has the wait look again).
    package let clock: any RecorderClock
    private let state = Mutex(State())
    private let waiter: ClockWait
    private let finished = DispatchSemaphore(value: 0)

    /// `name` is the thread's, for ps and gdb (15 bytes show).
    package init(name: String, clock: any RecorderClock = SystemClock()) {
        self.name = name
        self.clock = clock
        waiter = ClockWait(clock: clock)
    }

    /// Whether `stop()` was called: a pass checks it between its steps.
    package var isStopping: Bool { state.withLock { $0.stopping } }

    /// Starts the thread unless it runs. It calls `pass` straight away and again at each deadline
    /// `pass` returns (or sooner, on a wake), until stopped.
    package func start(_ pass: @escaping @Sendable () -> ContinuousClock.Instant) {
        let alreadyRunning = state.withLock { state in
            defer { state.running = true }
            return state.running
        }
        guard !alreadyRunning else { return }
        WorkerThread.start(name: name) { [self] in
            while !isStopping {
                // Until the pass's deadline, a wake (then the next pass at once) or a stop.
                waiter.wait(until: pass(), done: { [self] in
                    state.withLock { state in
                        defer { state.woken = false }
                        return state.stopping || state.woken
                    }
                })
            }
            finished.signal()
        }
    }

    /// Ends the wait: the next pass begins now (or, during a pass, as soon as it ends).
    package func wake() {
        state.withLock { $0.woken = true }
        waiter.poke()
    }

    /// Stops the thread after the pass under way, waiting at most `timeout` seconds for it.
    package func stop(timeout: Double = 5) {
        let wasRunning = state.withLock { state in
            state.stopping = true
            return state.running
        }
        guard wasRunning else { return }
        waiter.poke()
        _ = finished.wait(timeout: .now() + timeout)
    }
}
