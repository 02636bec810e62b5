import HTTPTypes
import Hummingbird
import Logging
import SystemSupport
import KioskHTTP

/// The operator's login on the share server, for the fleet page (only with `serve.token_file`):
/// `POST /login` with `{"token": ...}` sets the login cookie (`ServeOperator`), as the kiosk's
/// `/login` does; `POST /logout` makes the browser forget it. Wrong tokens are slowed per client.
enum ServeLoginRoutes {
    struct LoginFields: Decodable {
        var token: String?
    }

    struct LoggedIn: Encodable {
        var role: String
    }

    static func collection(_ access: ServeOperator, logger: Logger) -> GuardedRoutes {
        let routes = GuardedRoutes()
        routes.post("/login", .public, "logs the operator's browser in for the fleet page: {\"token\": ...} sets its cookie (HttpOnly, SameSite=Strict)",
                    body: 2048, tokenInBody: true) { request, context in
            let fields = try await JSONBody.read(request, allowed: ["token"]).decode(LoginFields.self)
            guard let token = fields.token?.trimmed(), !token.isEmpty else {
                throw APIError.badRequest("token is required: {\"token\": \"...\"}.")
            }
            guard access.isToken(token) else {
                if let wait = access.throttle.failed(context.client) {
                    await access.throttle.slow(wait)
                    return WrongCredentials.throttled(wait)
                }
                logger.notice("a wrong token was tried at /login from \(context.client)")
                return GuardedRoutes.unauthorized("that is not this share server's operator token (serve.token_file).")
            }
            access.throttle.succeeded(context.client)
            var response = HTTPAnswer.encoded(LoggedIn(role: "operator"))
            response.headers[.setCookie] = access.loginCookie(secure: context.reachedOverTLS(request))
            return response
        }
        routes.post("/logout", .public, "logs the operator's browser out: clears its cookie") { request, context in
            var response = HTTPAnswer.encoded(LoggedIn(role: "none"))
            response.headers[.setCookie] = ServeOperator.clearCookie(secure: context.reachedOverTLS(request))
            return response
        }
        return routes
    }
}
