import HTTPTypes
import Hummingbird
import KioskHTTP

/// What every request to the share server goes through before its route: the phone named by a
/// proxy of `serve.proxies` (its `X-Real-IP`; anybody else's is ignored), a form posted from
/// another site's page refused, and on every answer `nosniff`, the pages' CSP and a Referrer-Policy.
/// Every route is a capability link's or public, but the fleet page's data: with an operator's
/// token set (`serve.token_file`), who the request is comes from its bearer token or login cookie
/// (`context.identity`), and the route judges a wrong one (`GuardedRoutes`), as on the kiosk.
struct ServeGuard: RouterMiddleware {
    typealias Context = KioskRequestContext
    let proxies: Set<String>
    let access: ServeOperator?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if request.headers[KioskRequestContext.realIP] != nil, proxies.contains(context.client.address) {
            context.client = ClientAddress(forwarded: request.headers[KioskRequestContext.realIP])
        }
        if let access {
            let presented = access.presented(request)
            context.identity = presented.identity
            context.wrongCredentials = presented.wrong.map { WrongCredentials($0, throttle: access.throttle) }
        }
        var response: Response
        do {
            if request.method != .get && request.method != .head && request.method != .options,
               let refusal = CrossOrigin.refusal(request, withSessionCookie: context.identity?.via == .cookie,
                                                 overTLS: context.reachedOverTLS(request)) {
                response = refusal.response
            } else {
                response = try await next(request, context)
            }
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = PageText.contentSecurityPolicy }
        if response.headers[HTTPField.Name("Referrer-Policy")!] == nil { response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin" }
        return response
    }
}
