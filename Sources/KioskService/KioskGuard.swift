import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import SystemSupport
import Settings
import KioskHTTP
import KioskState
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
            response.headers[.contentSecurityPolicy] = PageFiles.contentSecurityPolicy
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
        if let wait = wrong.throttle.failed(client) { return await throttled(wait, wrong.throttle) }
        switch wrong.kind {
        case .token:
            return unauthorized("the token sent in Authorization is not this kiosk's. Send the booth's or the operator's token: Authorization: Bearer TOKEN.")
        case .forgedCookie:
            return nil
        }
    }

    /// 401 with `WWW-Authenticate`, the API's JSON body.
    static func unauthorized(_ message: String = "this needs the booth's or the operator's token: log in on the page (POST /login), or send Authorization: Bearer TOKEN.") -> Response {
        var response = APIError(.unauthorized, message).response
        response.headers[.wwwAuthenticate] = "Bearer realm=\"recorder\""
        return response
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

    /// A browser names the page that sent a request in Origin (and Sec-Fetch-Site); it must be
    /// ours: the scheme the page came over (http, or https through a proxy that says so), the Host
    /// the request names, and nothing else. A request that comes with the session cookie must name
    /// it: the browser attaches the cookie whoever's page asks, and only Origin tells.
    static func crossOrigin(_ request: Request, context: KioskRequestContext) -> APIError? {
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            return APIError(.recorder(.denied), "requests from other sites are refused.")
        }
        guard let origin = request.headers[.origin] else {
            if context.identity?.via == .cookie {
                return APIError(.recorder(.denied), "a request with the kiosk's session cookie must say where it comes from (Origin); use the kiosk's own page, or send Authorization: Bearer TOKEN instead of the cookie.")
            }
            return nil
        }
        let ours = (overTLS(request, context: context) ? "https://" : "http://") + (request.head.authority ?? "")
        if origin.lowercased() != ours.lowercased() {
            return APIError(.recorder(.denied), "requests from another origin (\(origin)) are refused; use the kiosk's own page.")
        }
        return nil
    }

    static let host = HTTPField.Name("Host")!

    /// The header in which the proxy names the phone, on its own listener (`kiosk.proxy_socket`).
    static let realIP = HTTPField.Name("X-Real-IP")!

    /// Whether the browser reached the page over TLS: through the proxy's own listener, or a proxy
    /// on this machine's loopback, that says so (`X-Forwarded-Proto: https`, which the shipped nginx
    /// configuration sets itself); nobody else is believed.
    static func overTLS(_ request: Request, context: KioskRequestContext) -> Bool {
        context.viaProxy ? forwardedHTTPS(request) : overTLS(request, client: context.client)
    }

    /// As above, for a request on kiosk.listen from `client`: only a proxy on this machine is believed.
    static func overTLS(_ request: Request, client: ClientAddress) -> Bool {
        client.isLoopback && forwardedHTTPS(request)
    }

    private static func forwardedHTTPS(_ request: Request) -> Bool {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }
}
