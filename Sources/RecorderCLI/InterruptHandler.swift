import Glibc
import Synchronization
import SystemSupport
import UnixSignals

/// First SIGINT/SIGTERM: stop and keep a shorter shot. Second: abandon it at once. The signals
/// arrive through service-lifecycle's `UnixSignalsSequence`, as the kiosk's do.
final class InterruptHandler: Sendable {
    private let task: Task<Void, Never>

    /// Returns once the signals are trapped: from then on a Ctrl-C is never lost.
    init(stop flag: StopSignal, stop: @escaping @Sendable () async -> Void) async {
        // The default action (ending the process) must not run before the sequence sees them.
        Posix.setSignal(SIGINT, ignored: true)
        Posix.setSignal(SIGTERM, ignored: true)
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        task = Task {
            var count = 0
            for await _ in signals {
                count += 1
                if count == 1 {
                    printError("\nrecorder: stopping; finishing the shot (press Ctrl-C again to abandon it)")
                    flag.set()
                    await stop()
                } else {
                    printError("recorder: abandoned; the previous shot was kept")
                    _exit(SysExit.interrupted.rawValue)
                }
            }
        }
    }

    func cancel() {
        task.cancel()
        Posix.setSignal(SIGINT, ignored: false)
        Posix.setSignal(SIGTERM, ignored: false)
    }
}
