import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import SystemSupport
import Settings
import KioskHTTP
import KioskState
import ShareServer
import Failures

/// What every request goes through before the router matches it. It never lets a request reach a
/// route: each route decides who may call it (`GuardedRoutes`). It refuses what no route should
/// see - a Host the kiosk does not answer to (DNS rebinding), a client throttled for guessing
/// tokens, a wrong bearer token, a state-changing request from another site's page - and finds who
/// the request is from its token (`context.identity`). Every answer gets `nosniff` and the CSP.
struct KioskGuard: RouterMiddleware {
    typealias Context = KioskRequestContext
    let settings: KioskSettings
    let credentials: KioskCredentials
    let throttle: LoginThrottle

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await decide(request, context: context, next: next)
        } catch let error as any HTTPResponseError {
            // A route's failure (an `APIError`) is answered here, so it gets the headers below too.
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        // Every answer, not only the pages: an SVG or a JSON body opened on its own runs nothing either.
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = PageText.contentSecurityPolicy
        }
        if response.headers[HTTPField.Name("Referrer-Policy")!] == nil {
            response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        }
        return response
    }

    private func decide(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Before anything else, on every route: a page on another name that resolves here (DNS
        // rebinding) gets nothing, not even a GET's data.
        // One Host, naming the kiosk (an absolute-form target's host is the Host: `RequestPace`).
        // HTTP/1.1 asks for exactly one; the first of two was taken before, whatever the second said.
        guard let authority = request.head.authority, request.headers[values: Self.host].isEmpty else {
            return APIError.badRequest("a request names the host it is for in one Host header (RFC 9112 3.2).").response
        }
        if !settings.answers(toHost: authority) {
            return APIError(.misdirected, "this kiosk does not answer to the host name in '\(authority)'. If that name is yours, add it to kiosk.hosts.").response
        }
        var context = context
        // Through the proxy's own listener the phone is who the proxy says (it sets X-Real-IP
        // itself); on kiosk.listen that header is a client's own words and ignored.
        if context.viaProxy {
            context.client = ClientAddress(forwarded: request.headers[Self.realIP])
        }
        // The token is judged first: a right one is let in whatever its address did before. A
        // wrong one is judged by the route that answers (`GuardedRoutes`): counted and, past the
        // free ones, answered late (LoginThrottle); `/login` judges the token in its body first, so
        // the right token wins whatever else the request carries.
        let presented = await credentials.presented(request)
        context.identity = presented.identity
        context.wrongCredentials = presented.wrong.map { WrongCredentials($0, throttle: throttle) }
        if request.method != .get && request.method != .head && request.method != .options {
            if let refusal = Self.crossOrigin(request, context: context) {
                return refusal.response
            }
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        // A session cookie that has ended (logged out, idle too long, its token changed, all ended
        // by the operator) or that the kiosk never made: the browser is told to forget it, whatever
        // the answer (a 429 too), unless the answer sets that cookie itself.
        let set = response.headers[values: .setCookie].map { String($0.prefix { $0 != "=" }) }
        for name in presented.stale where !set.contains(name) {
            response.headers.append(HTTPField(name: .setCookie, value: KioskCredentials.clearCookie(name, secure: Self.overTLS(request, context: context))))
        }
        return response
    }

    /// What a route answers a request that presented `wrong` credentials before it looks at anything
    /// else: a wrong token is counted and refused (401; 429, held back, once its address is slowed);
    /// a forged session cookie is counted too, and the request goes on as nobody's (nil) until its
    /// address is slowed.
    static func refusal(_ wrong: WrongCredentials, client: ClientAddress) async -> Response? {
        await wrong.refusal(client: client)
    }

    /// 401 with `WWW-Authenticate`, the API's JSON body.
    static func unauthorized(_ message: String = "this needs the booth's or the operator's token: log in on the page (POST /login), or send Authorization: Bearer TOKEN.") -> Response {
        GuardedRoutes.unauthorized(message)
    }

    /// 429 for a wrong token from a client that must wait `seconds`, sent once the throttle has held
    /// it back.
    static func throttled(_ seconds: Int, _ throttle: LoginThrottle) async -> Response {
        await throttle.slow(seconds)
        return throttled(seconds)
    }

    static func throttled(_ seconds: Int) -> Response {
        WrongCredentials.throttled(seconds)
    }

    /// A state-changing request must come from the kiosk's own page (`CrossOrigin`); one that came
    /// with the session cookie must say so in Origin.
    static func crossOrigin(_ request: Request, context: KioskRequestContext) -> APIError? {
        CrossOrigin.refusal(request, withSessionCookie: context.identity?.via == .cookie, overTLS: overTLS(request, context: context))
    }

    static let host = HTTPField.Name("Host")!

    /// The header in which the proxy names the phone, on its own listener (`kiosk.proxy_socket`).
    static let realIP = KioskRequestContext.realIP

    /// Whether the browser reached the page over TLS (`KioskRequestContext.reachedOverTLS`).
    static func overTLS(_ request: Request, context: KioskRequestContext) -> Bool {
        context.reachedOverTLS(request)
    }
}
