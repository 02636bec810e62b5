import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import MediaEncoder
import RecorderCore
import Synchronization
import SystemSupport
import VideoCapture

/// First SIGINT/SIGTERM: stop and keep a shorter shot. Second: abandon it at once.
final class InterruptHandler {
    private final class Count: Sendable { let value = Atomic<Int>(0) }
    private let sources: [any DispatchSourceSignal]

    init(stop flag: StopSignal, stop: @escaping @Sendable () async -> Void) {
        var sources: [any DispatchSourceSignal] = []
        let count = Count()
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if count.value.add(1, ordering: .relaxed).newValue == 1 {
                    printError("\nrecorder: stopping; finishing the shot (press Ctrl-C again to abandon it)")
                    flag.set()
                    Task { await stop() }
                } else {
                    printError("recorder: abandoned; the previous shot was kept")
                    _exit(SysExit.interrupted.rawValue)
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
