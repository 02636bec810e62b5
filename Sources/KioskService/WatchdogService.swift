import Logging
import ServiceLifecycle
import Shooting
import SystemSupport
import KioskHTTP
import KioskState

/// Speaks to systemd: READY=1 once the HTTP port is bound and the camera's state is known, then
/// WATCHDOG=1 every half `WatchdogSec` (on the clock handed in), but only while both the camera
/// loop and the HTTP server answer (the server is asked over a real connection), so a hung
/// process gets restarted.
struct WatchdogService: Service {
    let notifier: SystemdNotifier
    let health: HealthMonitor
    let manager: CameraManager
    let settings: KioskSettings
    let logger: Logger
    let clock: any RecorderClock
    /// Signalled as each listener is bound (kiosk.listen, and kiosk.proxy_socket when set).
    let httpBound: [Signal]

    func run() async throws {
        for bound in httpBound { await bound.wait() }
        await health.cameraReady.wait()
        // The waits also end when the group is cancelled (the port could not be bound): no
        // "ready" then.
        if Task.isShuttingDownGracefully || Task.isCancelled { return }
        let state = await manager.recordState, camera = await manager.status().camera
        notifier.ready(status: "listening on \(settings.host):\(settings.port); \(StatusReporter.line(state))")
        logger.notice("\(StatusReporter.readyLine(addresses: settings.pageAddresses, state: state, camera: camera))")
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()
            return
        }
        let probe = HTTPSelfProbe(host: settings.probeHost, port: settings.port)
        let loop = WatchdogLoop(interval: interval, clock: clock)
        await cancelWhenGracefulShutdown {
            await loop.run(check: {
                let cameraAlive = health.isCameraLoopAlive
                let httpAlive = await probe.answers(timeout: 2)
                if !(cameraAlive && httpAlive) {
                    logger.error("watchdog withheld: camera loop \(cameraAlive ? "alive" : "stuck"), HTTP \(httpAlive ? "alive" : "not answering")")
                }
                return cameraAlive && httpAlive
            }, ping: { notifier.watchdog() })
        }
    }
}

/// The watchdog's rhythm: a check every `interval` (half `WatchdogSec`) while the process
/// answers, and a ping after each that passed; after one that failed, another check after `retry`,
/// not a whole interval. One answer slower than the probe's timeout on a loaded booth used to cost
/// a restart mid-recording: the ping it withheld left no second chance inside WatchdogSec. Now
/// systemd restarts only a process that stayed stuck for most of WatchdogSec.
struct WatchdogLoop: Sendable {
    let interval: Duration
    let clock: any RecorderClock

    /// The pause before checking again after a failed check.
    var retry: Duration { min(.seconds(1), interval / 4) }

    /// Runs until cancelled.
    func run(check: @Sendable () async -> Bool, ping: @Sendable () -> Void) async {
        while !Task.isCancelled {
            let alive = await check()
            if alive { ping() }
            do { try await clock.sleep(for: alive ? interval : retry) } catch { return }
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
