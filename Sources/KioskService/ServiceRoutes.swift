import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import RecorderCore
import StorageUpload
import SystemSupport

/// The pages and what watches the kiosk: `/` (guests), `/admin` (the operator), `/healthz` and `/metrics`.
enum ServiceRoutes {
    static func collection(_ kiosk: Kiosk) -> RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)

        // The guest's page, in the booth's language, and the operator's.
        let guestPage = GuestPage.html(language: kiosk.settings.booth.language)
        routes.get("/") { _, _ in page(guestPage) }
        routes.get("/admin") { _, _ in page(OperatorPage.html) }

        routes.get("/healthz") { _, _ in
            let problems = await kiosk.problems()
            return KioskAPI.encoded(KioskAPI.Health(healthy: problems.isEmpty, reasons: problems.isEmpty ? nil : problems),
                           status: problems.isEmpty ? .ok : .serviceUnavailable)
        }

        routes.get("/metrics") { _, _ in
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
