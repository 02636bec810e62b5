package import HTTPTypes
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
    /// The largest request body it takes, in bytes (a route that reads none: 0).
    package var bodyLimit: Int
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

    /// What a request body may be at most where a route says nothing: a few fields of JSON.
    package static let smallBody = 1024

    package func get(_ path: String, _ access: RouteAccess, _ summary: String, use handler: @escaping Handler) {
        add(.get, path, access, summary, body: 0, handler)
    }

    /// A POST route; its body is at most `body` bytes (`RequestPace` refuses a larger one before
    /// reading it, and the route checks it again, whatever spelling of the path reached it).
    /// `tokenInBody`: the route judges the token its body carries before anything else the request
    /// presented (`/login`: the right token wins whatever cookie or header came with it).
    package func post(_ path: String, _ access: RouteAccess, _ summary: String, body: Int = smallBody, tokenInBody: Bool = false,
                      use handler: @escaping Handler) {
        add(.post, path, access, summary, body: body, tokenInBody: tokenInBody, handler)
    }

    /// A route of another module's collection (the fleet page's), mounted under this guard like
    /// the kiosk's own: a GET, or a POST with a small body.
    package func add(_ method: HTTPRequest.Method, _ path: String, _ access: RouteAccess, _ summary: String, _ handler: @escaping Handler) {
        add(method, path, access, summary, body: method == .get ? 0 : Self.smallBody, handler)
    }

    /// A PUT route; its body is at most `body` bytes, as a POST route's.
    package func put(_ path: String, _ access: RouteAccess, _ summary: String, body: Int = smallBody, use handler: @escaping Handler) {
        add(.put, path, access, summary, body: body, handler)
    }

    /// A request from a page marks itself as a person's (this header, `1`) when somebody used the
    /// page in the last minute (`common.js`); a page's background refresh does not.
    package static let personHeader = HTTPField.Name("X-Recorder-Person")!

    private func add(_ method: HTTPRequest.Method, _ path: String, _ access: RouteAccess, _ summary: String, body limit: Int,
                     tokenInBody: Bool = false, _ handler: @escaping Handler) {
        routes.append(KioskRoute(method: method.rawValue, path: path, access: access, summary: summary, bodyLimit: limit))
        collection.on(RouterPath(path), method: method, use: { request, context in
            if !tokenInBody, let wrong = context.wrongCredentials, let refusal = await wrong.refusal(client: context.client) {
                return refusal
            }
            if let refusal = Self.refusal(access, context) { return refusal }
            // An operator's action keeps the operator's session: an operator's route asked by a
            // person (not a page's refresh, not the booth's page asking with the operator's cookie).
            if access == .operator, request.headers[Self.personHeader] == "1", let session = context.identity?.session {
                await session.touch()
            }
            var request = request
            if method != .get {
                do {
                    _ = try await request.collectBody(upTo: limit)
                } catch {
                    return RequestPace.Refusal.tooLarge(limit: limit).error.response
                }
            }
            return try await handler(request, context)
        })
    }

    /// Why `context`'s identity may not call a route with `access`: 401 without a valid token,
    /// 403 with the booth's where the operator's is needed.
    package static func refusal(_ access: RouteAccess, _ context: KioskRequestContext) -> Response? {
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
