import FoundationEssentials
import HTTPTypes
package import Hummingbird
package import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
package import Fleet
import FleetValues
import StoreValues
import KioskWords
import Failures

/// `recorder fleet --prometheus --listen ADDRESS:PORT`: the booths' heartbeats as Prometheus
/// metrics (`HeartbeatMetrics`, each series labelled `kiosk`) at `/metrics`, the store read afresh
/// for each scrape (at most every few seconds), for booths the Prometheus server cannot reach
/// (behind a venue's NAT): they reach the store, the exporter reads it.
package enum FleetExporter {
    /// Serves until SIGTERM or SIGINT; throws when it cannot listen.
    package static func run(_ view: FleetView, host: String, port: Int, logger: Logger,
                            onServerRunning: @escaping @Sendable () -> Void = {}) async throws {
        let app = application(view, host: host, port: port, logger: logger, onServerRunning: onServerRunning)
        let group = ServiceGroup(configuration: .init(services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger))
        try await group.run()
    }

    /// The exporter's HTTP application on `host`:`port`.
    package static func application(_ view: FleetView, host: String, port: Int, logger: Logger,
                                    onServerRunning: @escaping @Sendable () -> Void = {}) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ -> Response in
            let reading = await view.reading()
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            // A store that cannot be read is an error for the scrape (Prometheus' `up` says it),
            // not an empty fleet.
            guard reading.failure == nil else {
                return Response(status: .serviceUnavailable, headers: headers,
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "the store cannot be read: \(reading.failure.map { OperatorWords.text(RecorderError($0)) } ?? "")\n")))
            }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: HeartbeatMetrics.text(reading.reports))))
        }
        router.get("/") { _, _ in "recorder fleet exporter: the booths' heartbeats as Prometheus metrics at /metrics\n" }
        var quiet = logger
        quiet.logLevel = .warning
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "recorder-fleet"),
                           onServerRunning: { _ in onServerRunning() }, logger: quiet)
    }
}
