import Glibc
import Synchronization
import SystemSupport

/// Runs `kiosk.on_state` (a lamp, a relay, a sound) with each new state as its one argument:
/// `on_state countdown`, `on_state recording`, ... The camera never waits for it: a state is handed
/// over and the call returns. One thread of its own runs the hook, one run at a time, each at most
/// `timeoutSeconds` (then SIGKILL); states that come while it runs are not queued up behind a slow
/// script: only the newest waits, so the lamp shows where the booth is now.
final class StateHook: Sendable {
    let path: String
    let timeoutSeconds: Double
    private let next = Mutex<String?>(nil)
    /// The thread sleeps on this pipe; `call` wakes it.
    private let wake: WakePipe?
    private let log: @Sendable (String) -> Void
    /// A script being written is tried again after a moment by this wait, which a newer state ends.
    private let retry: ClockWait

    init(path: String, timeoutSeconds: Double = 5, clock: any RecorderClock = .system, log: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        self.log = log
        retry = ClockWait(clock: clock)
        // (a pipe cannot fail here but for a process out of descriptors: then the hook is off;
        // its ends are not inherited by the hook or any other child)
        wake = WakePipe()
        if let wake {
            WorkerThread.start(name: "recorder-hook") { [self] in loop(wake) }
        }
    }

    /// Hands `state` to the hook's thread and returns at once.
    func call(_ state: String) {
        guard let wake else { return }
        next.withLock { $0 = state }
        wake.wake()
        retry.poke()
    }

    private func loop(_ wake: WakePipe) {
        while wake.waitForWake() {
            while let state = next.withLock({ value -> String? in defer { value = nil }; return value }) {
                run(state)
            }
        }
    }

    private func run(_ state: String) {
        var spawned = ChildProcess.spawn(path, [state])
        // Being written right now (an operator saving the script): a moment later it runs, unless
        // a newer state comes meanwhile (then that one runs: the lamp shows where the booth is now).
        for _ in 0..<5 {
            guard case .failure(let error) = spawned, error.code == ETXTBSY else { break }
            guard retry.wait(seconds: 0.1, done: { next.withLock { $0 != nil } }) else { return }
            spawned = ChildProcess.spawn(path, [state])
        }
        let child: ChildProcess
        switch spawned {
        case .failure(let error):
            log("kiosk.on_state: cannot run \(path): \(String(cString: strerror(error.code)))")
            return
        case .success(let started): child = started
        }
        // Asleep until it ends or its time is up: no polling.
        switch child.wait(timeout: timeoutSeconds) {
        case .timedOut:
            log("kiosk.on_state: \(path) \(state) took over \(String(cFormat: "%g", timeoutSeconds)) s and was stopped")
        case .exited(let status) where status != 0:
            log("kiosk.on_state: \(path) \(state) exited with status \(status)")
        case .exited, .signalled:
            break
        }
    }
}
