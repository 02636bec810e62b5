import FoundationEssentials
package import HTTPTypes
package import Hummingbird
import NIOCore
import SystemSupport
package import Fleet
import FleetValues
package import KioskWords
package import KioskHTTP
import Failures

/// The fleet's page for the operator (`/fleet`, refreshing) and its data (`GET /api/fleet`: every
/// booth of the store, newest heartbeat first, with its problems, their words and fixes), as
/// routes that say who may call each, for whatever serves them to mount with its own guard: the
/// kiosk (`KioskAPI`) and the share server. The page is a shell with no data, like the kiosk's.
package enum FleetRoutes {
    /// One route: method, path (from the server's root), who may call it, what it is for, and
    /// what answers it.
    package struct Route: Sendable {
        package var method: HTTPRequest.Method
        package var path: String
        package var access: RouteAccess
        package var summary: String
        package var handler: @Sendable (Request, KioskRequestContext) async throws -> Response
    }

    /// The routes over `view` (a kiosk's includes its own booth, live).
    package static func routes(_ view: FleetView) -> [Route] {
        [
            Route(method: .get, path: "/fleet", access: .public, summary: "the fleet's page: every booth of the store (its data needs the operator's token)") { _, _ in
                page("fleet.html", type: "text/html; charset=utf-8")
            },
            Route(method: .get, path: "/fleet/:file", access: .public, summary: "the fleet page's script and style sheet") { _, context in
                let name = context.parameters.get("file") ?? ""
                let type = name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8"
                guard name.hasSuffix(".js") || name.hasSuffix(".css"), EmbeddedPages.files[name] != nil else {
                    return APIError(.recorder(.notFound), "no such file: the fleet page uses /fleet/fleet.js and /fleet/fleet.css.").response
                }
                return page(name, type: type)
            },
            Route(method: .get, path: "/api/fleet", access: .operator, summary: "every booth writing its heartbeat into the store: online or offline, its problems and their fixes") { _, _ in
                HTTPAnswer.encoded(document(await view.reading()))
            },
        ]
    }

    /// The reading as the page and `recorder fleet --json` give it, the store's failure worded.
    package static func document(_ reading: FleetView.Reading) -> FleetDocument {
        FleetDocument(reading.reports, readAt: RFC3339.string(reading.readAt),
                      storeError: reading.failure.map { OperatorWords.text(RecorderError($0)) },
                      asOf: reading.asOf.map(RFC3339.string))
    }

    /// What every answer of the page may load: its own script and style, nothing else.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    private static func page(_ name: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = name.hasSuffix(".html") ? "no-store" : "no-cache"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: EmbeddedPages.files[name] ?? "")))
    }
}
