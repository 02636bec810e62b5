import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import SystemSupport
import Settings
import Shooting
import KioskHTTP
import KioskState
import ShareServer
import Failures

/// The pages and what watches the kiosk: `/` (guests), `/admin` (the operator), `/healthz` and `/metrics`.
enum ServiceRoutes {
    static func collection(language: String, consent: ConsentText?, mail: Bool, health: HealthMonitor, metrics: KioskMetrics, limits: KioskLimits,
                           heartbeats: HeartbeatService) -> GuardedRoutes {
        let routes = GuardedRoutes()

        // The pages are shells: they hold no data, and fetch it through the API with a token.
        let guestPage = GuestPage.html(language: language, consent: consent, mail: mail)
        routes.get("/", .public, "the booth's page (its data needs the booth's token)") { _, _ in page(guestPage) }
        routes.get("/admin", .public, "the operator's page (its data needs the operator's token)") { _, _ in page(OperatorPage.html) }
        routes.get("/login", .public, "the login page (the booth's screen or the operator's browser)") { _, _ in page(PageFiles.text("login.html")) }
        // The pages' scripts and styles: the same for everybody, and no data in them.
        routes.get("/assets/:file", .public, "the pages' scripts and style sheets") { _, context in
            PageFiles.asset(context.parameters.get("file") ?? "") ?? APIError(.recorder(.notFound), "no such file: the pages use /assets/<name>.js and .css only.").response
        }

        // Monitors ask without a token: they learn ok or not ok. The operator also learns why.
        routes.get("/healthz", .public, "ok or not ok (200 or 503); the reasons for the operator's token") { _, context in
            let problems = await health.problems()
            let reasons = context.identity?.role == .operator && !problems.isEmpty ? problems : nil
            return HTTPAnswer.encoded(KioskAPI.Health(healthy: problems.isEmpty, reasons: reasons),
                                    status: problems.isEmpty ? .ok : .serviceUnavailable)
        }

        routes.get("/metrics", .operator, "Prometheus metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            metrics.record(limits)
            // The booth's heartbeat as of now (its camera, outbox, disk, clock): the series the
            // fleet's alert rules and dashboard read (packaging/prometheus/).
            let booth = await heartbeats.snapshot()
            let text = metrics.text(booth: booth, heartbeatAge: heartbeats.heartbeatAge)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }

        return routes
    }

    static func page(_ html: String) -> Response {
        PageText.page(html)
    }
}
