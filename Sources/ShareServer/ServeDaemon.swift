import Glibc
package import Hummingbird
import NIOCore
import Logging
import ServiceLifecycle
import UnixSignals
package import Failures
package import KioskHTTP

/// `recorder serve`: the share server's HTTP server under one ServiceGroup, with a graceful
/// shutdown on SIGTERM and SIGINT (answers under way end with it: a phone's next range request goes
/// to another server, or this one once it is back).
package struct ServeDaemon: Sendable {
    package let server: ShareServices

    package init(server: ShareServices) {
        self.server = server
    }

    /// How long a connection may stay silent (a request's head, a kept-alive connection unused);
    /// answers being written are not cut. As the kiosk's.
    static let idleTimeout = TimeAmount.seconds(15)

    /// The HTTP application alone (the tests drive it with Hummingbird's test client): each
    /// connection counted (`ConnectionLimits`), each request timed as it arrives and its body held
    /// to its route's limit (`RequestPace`, a phone counted by the address its proxy of
    /// `serve.proxies` names), and its answers paced by its socket (`SocketPace`), as the kiosk's.
    package func application(onServerRunning: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        var logger = server.logger
        logger.logLevel = .warning
        let (router, routes) = server.router()
        let limits = server.connections
        return Application(
            router: router,
            server: PacedHTTP1Channel.server(.init(additionalChannelHandlers: [limits.gate(), SocketPace()], idleTimeout: Self.idleTimeout),
                                             pace: requestPace(routes: routes)),
            configuration: ApplicationConfiguration(address: .hostname(server.settings.host, port: server.settings.port), serverName: "recorder"),
            onServerRunning: { _ in onServerRunning() },
            logger: logger)
    }

    /// Each connection's `RequestPace`: the bodies `routes` take, the connections counted with the
    /// others', a phone its proxy of `serve.proxies` names counted by its own address.
    package func requestPace(routes: [KioskRoute]) -> @Sendable () -> RequestPace {
        let limits = server.connections, proxies = server.settings.proxies, bodies = Self.bodyLimits(routes)
        return { RequestPace(limits: limits, bodyLimits: bodies, proxies: proxies) }
    }

    /// Each route's largest body, for `RequestPace`: every route here is a capability link's or
    /// public, so its limit tells a caller nothing it could not learn by asking.
    static func bodyLimits(_ routes: [KioskRoute]) -> BodyLimits {
        BodyLimits(routes.map { BodyLimits.Entry(method: $0.method, path: $0.path, bytes: $0.bodyLimit) })
    }

    /// How long answers under way may go on after SIGTERM before they are cancelled: a host's
    /// Download all is not waited for to its end (the unit's TimeoutStopSec is 15 s; the host's
    /// browser resumes it with a range, from another server).
    static let stopGrace: Duration = .seconds(10)

    /// Runs until SIGTERM or SIGINT.
    package func run() async throws(RecorderError) {
        let logger = server.logger, address = server.settings.address
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application(onServerRunning: { logger.notice("serving share links and galleries on \(address)") }))],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.stopGrace
        let group = ServiceGroup(configuration: configuration)
        do {
            try await group.run()
        } catch {
            throw Self.failure(error, settings: server.settings)
        }
        logger.notice("stopped")
    }

    /// Why the server could not start, as a case: the port taken, an address this machine does not
    /// have, a port below 1024 without the right; the errno, not NIO's symbols.
    static func failure(_ error: any Error, settings: ServeSettings) -> RecorderError {
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: .serve(.addressInUse(address: settings.address, port: settings.port))
        case EADDRNOTAVAIL: .serve(.notAnAddressHere(host: settings.host))
        case EACCES: .serve(.privilegedPort(host: settings.host, port: settings.port))
        case let code: .serve(.serverStopped(reason: code.map { String(cString: strerror($0)) } ?? "\(error)", address: settings.address))
        }
    }
}
