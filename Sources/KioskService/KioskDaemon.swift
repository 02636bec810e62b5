import Glibc
package import Hummingbird
import NIOCore
import Logging
package import Settings
import ServiceLifecycle
import UnixSignals
import KioskWords
import KioskHTTP
import KioskState
import ShareServer
package import Failures
import SystemSupport

/// `recorder kiosk`: the kiosk's services (`KioskServices`) run under one ServiceGroup - HTTP
/// (Hummingbird), the event stream, the outbox drain, retention, the questions, systemd's
/// notify/watchdog, the camera and the button - with a graceful shutdown on SIGTERM and SIGINT.
package struct KioskDaemon: Sendable {
    package let kiosk: KioskServices

    package init(kiosk: KioskServices) {
        self.kiosk = kiosk
    }

    /// How long a connection may stay silent: a request's head must have arrived this long after
    /// the connection opened or its last answer ended (so a connection that sends nothing, or a
    /// header a byte at a time, is closed), and a kept-alive one is closed after this long unused.
    /// Answers being written (a video, the event stream) are not cut.
    package static let idleTimeout = TimeAmount.seconds(15)

    /// The HTTP application alone (the tests drive it with Hummingbird's test client).
    package func application(onServerRunning: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        let (router, routes) = KioskAPI.router(kiosk)
        return application(router: router, bodies: Self.bodyLimits(routes), address: .hostname(kiosk.settings.host, port: kiosk.settings.port),
                           onServerRunning: onServerRunning)
    }

    /// The HTTP application of `router` on `address` (kiosk.listen, or the proxy's socket): each
    /// connection counted (`ConnectionLimits`), each request timed as it arrives and its body held
    /// to its route's limit (`RequestPace`), and its answers paced by its socket (`SocketPace`).
    private func application(router: Router<KioskRequestContext>, bodies: BodyLimits, address: BindAddress,
                             onServerRunning: @escaping @Sendable () -> Void) -> some ApplicationProtocol {
        var logger = kiosk.logger
        logger.logLevel = .warning
        let limits = kiosk.limits.connections
        return Application(
            router: router,
            server: PacedHTTP1Channel.server(.init(additionalChannelHandlers: [limits.gate(), SocketPace()], idleTimeout: Self.idleTimeout),
                                             pace: { RequestPace(limits: limits, bodyLimits: bodies) }),
            configuration: ApplicationConfiguration(address: address, serverName: "recorder"),
            onServerRunning: { _ in onServerRunning() },
            logger: logger)
    }

    /// Each route's largest body, for `RequestPace`: every public route's, and an operator's or
    /// the booth's that takes more than `HTTPAnswer.maximumBody` (the branding frame's PNG), so the
    /// pace does not refuse what the route takes; any other route that asks for a token checks its
    /// own limit once it has judged its caller (a limit answered before would tell a caller
    /// without a token which routes exist).
    static func bodyLimits(_ routes: [KioskRoute]) -> BodyLimits {
        BodyLimits(routes.filter { $0.access == .public || $0.bodyLimit > HTTPAnswer.maximumBody }
            .map { BodyLimits.Entry(method: $0.method, path: $0.path, bytes: $0.bodyLimit) })
    }

    /// How a run ended.
    package enum Outcome: Sendable, Equatable {
        /// SIGTERM or SIGINT.
        case stopped
        /// For the restart the operator page asked for (`KioskRestart`): start the kiosk again.
        case restart
    }

    /// Runs until SIGTERM or SIGINT, or the restart the operator asked for; a shot under way is
    /// finished and kept first.
    package func run() async throws(RecorderError) -> Outcome {
        let (router, routes) = KioskAPI.router(kiosk)
        let bodies = Self.bodyLimits(routes)
        let bound = Signal()
        var listeners: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: application(router: router, bodies: bodies, address: .hostname(kiosk.settings.host, port: kiosk.settings.port),
                                       onServerRunning: { bound.signal() })),
        ]
        var waits = [bound]
        // The proxy's own listener, beside kiosk.listen: the same routes, for phones only.
        if let path = kiosk.settings.proxySocket {
            let proxyBound = Signal()
            let logger = kiosk.logger
            let app = application(router: router, bodies: bodies, address: .unixDomainSocket(path: path), onServerRunning: {
                // The proxy runs as a user of its own (www-data): it must be able to connect.
                do throws(Descriptors.Errno) { try Posix.chmod(path, 0o666) } catch {
                    logger.warning("kiosk.proxy_socket = \(path): cannot let the proxy connect (chmod: \(error.description)).")
                }
                proxyBound.signal()
            })
            listeners.append(.init(service: ProxyListener(app: app, path: path)))
            waits.append(proxyBound)
        }
        // Shut down in reverse, one after another: the button first (no press starts a shot
        // now), then the camera (it finishes a shot), ... the event stream (what was announced
        // meanwhile still goes out), and the HTTP server last, so the page sees the shot end.
        await kiosk.wire()
        let mail: [ServiceGroupConfiguration.ServiceConfiguration] = kiosk.mail.map { [.init(service: MailDrainService(drain: $0.drain))] } ?? []
        let group = ServiceGroup(
            configuration: .init(
                services: listeners + mail + [
                    .init(service: EventService(events: kiosk.events, status: kiosk.status, clock: kiosk.clock)),
                    .init(service: OutboxDrainService(drain: kiosk.drain)),
                    .init(service: kiosk.heartbeats),
                    .init(service: kiosk.retention),
                    .init(service: PromptService(deck: kiosk.prompts, events: kiosk.events, clock: kiosk.clock)),
                    .init(service: WatchdogService(notifier: kiosk.notifier, health: kiosk.health, manager: kiosk.manager,
                                                   settings: kiosk.settings, logger: kiosk.logger, clock: kiosk.clock, httpBound: waits)),
                    .init(service: CameraService(manager: kiosk.manager, health: kiosk.health, preview: kiosk.preview,
                                                 connections: kiosk.limits.connections, notifier: kiosk.notifier, logger: kiosk.logger,
                                                 clock: kiosk.clock)),
                    .init(service: kiosk.button),
                    // Returns when the restart the operator asked for may begin: the others end as
                    // they do for SIGTERM.
                    .init(service: RestartService(restart: kiosk.restart, manager: kiosk.manager, guests: kiosk.guests,
                                                  notifier: kiosk.notifier, logger: kiosk.logger, clock: kiosk.clock),
                          successTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: kiosk.logger))
        do {
            try await group.run()
        } catch {
            throw Self.failure(error, settings: kiosk.settings)
        }
        if kiosk.restart.isStopping {
            kiosk.logger.notice("stopped for the restart")
            return .restart
        }
        kiosk.logger.notice("stopped")
        return .stopped
    }

    /// Why a server could not start, as a case: the port taken, an address this machine does not
    /// have, a port below 1024 without the right; the errno, not NIO's symbols.
    static func failure(_ error: any Error, settings: KioskSettings) -> RecorderError {
        if let failed = error as? ProxyListener.Failed {
            return .kiosk(.proxySocketFailed(path: failed.path, reason: failed.reason))
        }
        let address = "\(settings.host.contains(":") ? "[\(settings.host)]" : settings.host):\(settings.port)"
        let code = (error as? IOError)?.errnoCode
        switch code {
        case EADDRINUSE:
            return .kiosk(.addressInUse(address: address, port: settings.port))
        case EADDRNOTAVAIL:
            return .kiosk(.notAnAddressHere(host: settings.host))
        case EACCES:
            return .kiosk(.privilegedPort(host: settings.host, port: settings.port))
        default:
            let reason = code.map { String(cString: strerror($0)) } ?? "\(error)"
            return .kiosk(.serverStopped(reason: reason, address: address))
        }
    }
}
