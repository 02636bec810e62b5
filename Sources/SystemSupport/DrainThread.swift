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
    private let signal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// `name` is the thread's, for ps and gdb (15 bytes show).
    package init(name: String, clock: any RecorderClock = SystemClock()) {
        self.name = name
        self.clock = clock
        clock.whenAdvanced { [weak self] in self?.clockMoved() }
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
                wait(until: pass())
            }
            finished.signal()
        }
    }

    /// Ends the wait: the next pass begins now (or, during a pass, as soon as it ends).
    package func wake() {
        state.withLock { $0.woken = true }
        signal.signal()
    }

    /// The clock was moved (the clock tells this itself): the waiting thread looks at the time left again.
    package func clockMoved() {
        signal.signal()
    }

    /// Stops the thread after the pass under way, waiting at most `timeout` seconds for it.
    package func stop(timeout: Double = 5) {
        let wasRunning = state.withLock { state in
            state.stopping = true
            return state.running
        }
        guard wasRunning else { return }
        signal.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }

    /// Waits on the signal until `deadline` by the clock, a wake or a stop; a signal without
    /// either (the clock moved) only has the time left looked at again.
    private func wait(until deadline: ContinuousClock.Instant) {
        while true {
            let done = state.withLock { state -> Bool in
                defer { state.woken = false }
                return state.stopping || state.woken
            }
            if done { return }
            let left = clock.remaining(until: deadline)
            if left <= .zero { return }
            // (capped at an hour: a wait is looked at again, never trusted for days)
            let seconds = min(Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18, 3600)
            _ = signal.wait(timeout: .now() + seconds)
            // Several signals in a row need one look.
            while signal.wait(timeout: .now()) == .success {}
        }
    }
}
