import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import RecorderCore
import StorageUpload
import SystemSupport

/// The pages and what watches the kiosk: `/` (guests), `/admin` (the operator), `/healthz` and `/metrics`.
enum ServiceRoutes {
    static func collection(_ kiosk: Kiosk) -> GuardedRoutes {
        let routes = GuardedRoutes()

        // The pages are shells: they hold no data, and fetch it through the API with a token.
        let guestPage = GuestPage.html(language: kiosk.settings.booth.language)
        routes.get("/", .public, "the booth's page (its data needs the booth's token)") { _, _ in page(guestPage) }
        routes.get("/admin", .public, "the operator's page (its data needs the operator's token)") { _, _ in page(OperatorPage.html) }

        // Monitors ask without a token: they learn ok or not ok. The operator also learns why.
        routes.get("/healthz", .public, "ok or not ok (200 or 503); the reasons for the operator's token") { _, context in
            let problems = await kiosk.problems()
            let reasons = context.identity?.role == .operator && !problems.isEmpty ? problems : nil
            return KioskAPI.encoded(KioskAPI.Health(healthy: problems.isEmpty, reasons: reasons),
                                    status: problems.isEmpty ? .ok : .serviceUnavailable)
        }

        routes.get("/metrics", .operator, "Prometheus metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: kiosk.metrics.text())))
        }

        return routes
    }

    static func page(_ html: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
