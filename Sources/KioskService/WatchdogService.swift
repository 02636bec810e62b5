import Dispatch
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import Shooting

/// Speaks to systemd: READY=1 once the HTTP port is bound and the camera's state is known, then
/// WATCHDOG=1 every half `WatchdogSec`, but only while both the camera loop and the HTTP server
/// answer (the server is asked over a real connection), so a hung process gets restarted.
struct WatchdogService: Service {
    let kiosk: Kiosk
    /// Signalled as each listener is bound (kiosk.listen, and kiosk.proxy_socket when set).
    let httpBound: [Signal]

    func run() async throws {
        let notifier = kiosk.notifier
        for bound in httpBound { await bound.wait() }
        await kiosk.cameraReady.wait()
        // The waits also end when the group is cancelled (the port could not be bound): no
        // "ready" then.
        if Task.isShuttingDownGracefully || Task.isCancelled { return }
        let state = await kiosk.manager.recordState
        notifier.ready(status: "listening on \(kiosk.settings.host):\(kiosk.settings.port); \(Kiosk.statusLine(state))")
        kiosk.logger.notice("ready: \(kiosk.settings.pageAddresses.joined(separator: " ")) (\(Kiosk.statusLine(state)))")
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()
            return
        }
        let probe = HTTPSelfProbe(host: kiosk.settings.probeHost, port: kiosk.settings.port)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let cameraAlive = kiosk.isCameraLoopAlive
            let httpAlive = await probe.answers(timeout: 2)
            if cameraAlive && httpAlive {
                notifier.watchdog()
            } else {
                kiosk.logger.error("watchdog withheld: camera loop \(cameraAlive ? "alive" : "stuck"), HTTP \(httpAlive ? "alive" : "not answering")")
            }
            try? await Task.sleep(for: interval)
        }
    }
}

/// A one-shot event for tasks to wait on (the HTTP port bound, the camera checked).
package final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    package init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    package func signal() { continuation.finish() }

    /// Returns once `signal()` was called (at once if it already was).
    package func wait() async {
        for await _ in stream {}
    }
}
