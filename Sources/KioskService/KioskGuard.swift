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
        if let authority = request.head.authority, !settings.answers(toHost: authority) {
            return APIError(.misdirected, "this kiosk does not answer to the host name in '\(authority)'. If that name is yours, add it to kiosk.hosts.").response
        }
        var context = context
        // Through the proxy's own listener the phone is who the proxy says (it sets X-Real-IP
        // itself); on kiosk.listen that header is a client's own words and ignored.
        if context.viaProxy {
            context.client = ClientAddress(forwarded: request.headers[Self.realIP])
        }
        // The token is judged first: a right one is let in whatever its address did before, a
        // wrong one is counted and, past the free ones, answered late (LoginThrottle).
        let presented = await credentials.presented(request)
        let client = context.client
        var clearStaleCookie = false
        switch presented {
        case .nothing: break
        case .valid(let identity):
            context.identity = identity
        case .wrongToken:
            if let wait = throttle.failed(client) { return await Self.throttled(wait, throttle) }
            return Self.unauthorized("the token sent in Authorization is not this kiosk's. Send the booth's or the operator's token: Authorization: Bearer TOKEN.")
        case .forgedCookie:
            // A session cookie the kiosk never issued (its MAC is wrong): a guess like a wrong
            // token, and the browser is told to forget it.
            if let wait = throttle.failed(client) { return await Self.throttled(wait, throttle) }
            clearStaleCookie = true
        case .endedSession:
            // A session that has ended (logged out, idle too long, its token changed, all ended
            // by the operator): no guess, and the browser is told to forget it.
            clearStaleCookie = true
        }
        if request.method != .get && request.method != .head && request.method != .options {
            if let refusal = Self.crossOrigin(request, identity: context.identity) {
                return refusal.response
            }
        }
        var response = try await next(request, context)
        if clearStaleCookie && response.headers[.setCookie] == nil {
            response.headers[.setCookie] = KioskCredentials.clearCookie(secure: Self.overTLS(request, context: context))
        }
        return response
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
        var response = APIError(.tooMany, "too many wrong tokens from this address: try again in \(seconds) s.").response
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// A state-changing request must come from the kiosk's own page (`CrossOrigin`); one that came
    /// with the session cookie must say so in Origin.
    static func crossOrigin(_ request: Request, identity: KioskIdentity?) -> APIError? {
        CrossOrigin.refusal(request, withSessionCookie: identity?.via == .cookie)
    }

    /// The header in which the proxy names the phone, on its own listener (`kiosk.proxy_socket`).
    static let realIP = KioskRequestContext.realIP

    /// Whether the browser reached the page over TLS (`KioskRequestContext.reachedOverTLS`).
    static func overTLS(_ request: Request, context: KioskRequestContext) -> Bool {
        context.reachedOverTLS(request)
    }
}
