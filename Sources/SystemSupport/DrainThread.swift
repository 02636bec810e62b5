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
        /// Between passes, with no wake pending: what `waitUntilIdle` waits for.
        var idle = false
    }

    private let name: String
    /// What the deadlines count by (a `TestClock` in tests: each move has the wait look again).
    package let clock: any RecorderClock
    private let state = Mutex(State())
    private let waiter: ClockWait
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled when the thread begins to wait between passes.
    private let idled = ChangeSignal()

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
                state.withLock { $0.idle = false }
                // Until the pass's deadline, a wake (then the next pass at once) or a stop.
                waiter.wait(until: pass(), done: { [self] in
                    let (done, nowIdle) = state.withLock { state in
                        let done = state.stopping || state.woken
                        let nowIdle = !done && !state.idle
                        state.woken = false
                        state.idle = !done
                        return (done, nowIdle)
                    }
                    if nowIdle { idled.signal() }
                    return done
                })
            }
            finished.signal()
        }
    }

    /// Returns once the thread waits between passes with no wake pending (true), or after
    /// `timeout` of the machine's time (false). A test moves its clock only then: a pass under
    /// way would read the time before the move and act after it, as no real pass can.
    @discardableResult
    package func waitUntilIdle(timeout: Duration = .seconds(60)) async -> Bool {
        await idled.wait(until: { state.withLock { $0.idle && !$0.woken } }, timeout: timeout)
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
