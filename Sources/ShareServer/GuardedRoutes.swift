import HTTPTypes
package import Hummingbird
import Settings
package import KioskHTTP
import Failures

/// One route of the kiosk (or of the share server): its method, its path as the router has it, who may call it, and what
/// it is for (`GET /api/admin/routes`, docs/security.md, the tests that try every route).
package struct KioskRoute: Sendable, Equatable, Encodable {
    package var method: String
    package var path: String
    package var access: RouteAccess
    package var summary: String
}

/// A Hummingbird route collection in which every route says who may call it (there is no way to
/// add one without an access level), and whose check runs inside the endpoint the router matched:
/// whatever spelling of a path reached it (`//api/x`, `/api/x/`), the route that answers is the one
/// that checks. Nothing decides on the path's text.
package final class GuardedRoutes {
    package typealias Handler = @Sendable (Request, KioskRequestContext) async throws -> Response

    package let collection = RouteCollection(context: KioskRequestContext.self)
    /// The routes added, with paths relative to where the collection is mounted.
    package private(set) var routes: [KioskRoute] = []

    package init() {}


    package func get(_ path: String, _ access: RouteAccess, _ summary: String, use handler: @escaping Handler) {
        add(.get, path, access, summary, handler)
    }

    package func post(_ path: String, _ access: RouteAccess, _ summary: String, use handler: @escaping Handler) {
        add(.post, path, access, summary, handler)
    }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ access: RouteAccess, _ summary: String, _ handler: @escaping Handler) {
        routes.append(KioskRoute(method: method.rawValue, path: path, access: access, summary: summary))
        collection.on(RouterPath(path), method: method, use: { request, context in
            if let refusal = Self.refusal(access, context) { return refusal }
            return try await handler(request, context)
        })
    }

    /// Why `context`'s identity may not call a route with `access`: 401 without a valid token,
    /// 403 with the booth's where the operator's is needed.
    static func refusal(_ access: RouteAccess, _ context: KioskRequestContext) -> Response? {
        guard !access.admits(context.identity?.role) else { return nil }
        if context.identity == nil { return unauthorized() }
        return APIError(.recorder(.denied), "this needs the operator's token; the booth's token may only drive the booth's own page (log in with the operator's token: POST /login).").response
    }
}

extension GuardedRoutes {
    /// 401 with `WWW-Authenticate`, the API's JSON body.
    package static func unauthorized(_ message: String = "this needs the booth's or the operator's token: log in on the page (POST /login), or send Authorization: Bearer TOKEN.") -> Response {
        var response = APIError(.unauthorized, message).response
        response.headers[.wwwAuthenticate] = "Bearer realm=\"recorder\""
        return response
    }
}
