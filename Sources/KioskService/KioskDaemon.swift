import Glibc
package import Hummingbird
import NIOCore
import Logging
package import Settings
import ServiceLifecycle
import UnixSignals

/// `recorder kiosk`: the kiosk's services under one ServiceGroup - HTTP (Hummingbird), the camera,
/// the outbox drain and systemd's notify/watchdog - with a graceful shutdown on SIGTERM and SIGINT.
package struct KioskDaemon: Sendable {
    package let kiosk: Kiosk

    package init(kiosk: Kiosk) {
        self.kiosk = kiosk
    }

    /// How long a connection may stay silent: a request's head must have arrived this long after
    /// the connection opened or its last answer ended (so a connection that sends nothing, or a
    /// header a byte at a time, is closed), and a kept-alive one is closed after this long unused.
    /// Answers being written (a video, the event stream) are not cut.
    package static let idleTimeout = TimeAmount.seconds(15)

    /// The HTTP application alone (the tests drive it with Hummingbird's test client).
    package func application(onServerRunning: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        var logger = kiosk.logger
        logger.logLevel = .warning
        let limits = kiosk.limits.connections
        return Application(
            router: KioskAPI.router(kiosk).router,
            server: .http1(configuration: .init(additionalChannelHandlers: [limits.gate()], idleTimeout: Self.idleTimeout)),
            configuration: ApplicationConfiguration(address: .hostname(kiosk.settings.host, port: kiosk.settings.port),
                                                    serverName: "recorder"),
            onServerRunning: { _ in onServerRunning() },
            logger: logger)
    }

    /// Runs until SIGTERM or SIGINT; a shot under way is finished and kept first.
    package func run() async throws(RecorderError) {
        let bound = Signal()
        let app = application(onServerRunning: { bound.signal() })
        // Shut down in reverse: the camera first (it finishes a shot), then the drain, and the
        // HTTP server last, so the page sees the shot end.
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: app),
                    .init(service: OutboxDrainService(drain: kiosk.drain)),
                    .init(service: RetentionService(kiosk: kiosk)),
                    .init(service: PromptService(kiosk: kiosk)),
                    .init(service: WatchdogService(kiosk: kiosk, httpBound: bound)),
                    .init(service: CameraService(kiosk: kiosk)),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: kiosk.logger))
        do {
            try await group.run()
        } catch {
            throw Self.failure(error, settings: kiosk.settings)
        }
        kiosk.logger.notice("stopped")
    }

    /// One plain sentence for a server that could not start: the port taken, an address this
    /// machine does not have, a port below 1024 without the right; the errno, not NIO's symbols.
    static func failure(_ error: any Error, settings: KioskSettings) -> RecorderError {
        let address = "\(settings.host.contains(":") ? "[\(settings.host)]" : settings.host):\(settings.port)"
        let code = (error as? IOError)?.errnoCode
        switch code {
        case EADDRINUSE:
            return RecorderError("\(address) is already in use by another program (`ss -ltnp 'sport = :\(settings.port)'` shows which). Stop it, or set kiosk.listen (--listen) to another port.",
                                 kind: .unavailable)
        case EADDRNOTAVAIL:
            return RecorderError("\(settings.host) is not an address of this machine. Set kiosk.listen (--listen) to one of its addresses, 127.0.0.1 or 0.0.0.0.",
                                 kind: .misconfigured)
        case EACCES:
            return RecorderError("port \(settings.port) needs privileges this user lacks (ports below 1024). Use a port from 1024 up, e.g. --listen \(settings.host):8080.",
                                 kind: .denied)
        default:
            let reason = code.map { String(cString: strerror($0)) } ?? "\(error)"
            return RecorderError("the kiosk stopped: \(reason) (listening on \(address)).", kind: .unavailable)
        }
    }
}
