import Hummingbird
import Logging
import RecorderCore
import ServiceLifecycle
import UnixSignals

/// `recorder kiosk`: the kiosk's services under one ServiceGroup - HTTP (Hummingbird), the camera,
/// the outbox drain and systemd's notify/watchdog - with a graceful shutdown on SIGTERM and SIGINT.
public struct KioskDaemon: Sendable {
    public let kiosk: Kiosk

    public init(kiosk: Kiosk) {
        self.kiosk = kiosk
    }

    /// The HTTP application alone (the tests drive it with Hummingbird's test client).
    public func application(onServerRunning: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        var logger = kiosk.logger
        logger.logLevel = .warning
        return Application(
            router: KioskAPI.router(kiosk),
            configuration: ApplicationConfiguration(address: .hostname(kiosk.settings.host, port: kiosk.settings.port),
                                                    serverName: "recorder"),
            onServerRunning: { _ in onServerRunning() },
            logger: logger)
    }

    /// Runs until SIGTERM or SIGINT; a shot under way is finished and kept first.
    public func run() async throws(RecorderError) {
        let bound = Signal()
        let app = application(onServerRunning: { bound.signal() })
        // Shut down in reverse: the camera first (it finishes a shot), then the drain, and the
        // HTTP server last, so the page sees the shot end.
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: app),
                    .init(service: OutboxDrainService(drain: kiosk.drain)),
                    .init(service: WatchdogService(kiosk: kiosk, httpBound: bound)),
                    .init(service: CameraService(kiosk: kiosk)),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: kiosk.logger))
        do {
            try await group.run()
        } catch {
            throw RecorderError("the kiosk stopped: \(error). Is \(kiosk.settings.host):\(kiosk.settings.port) already in use? Change kiosk.listen.",
                                exitStatus: .unavailable)
        }
        kiosk.logger.notice("stopped")
    }
}
