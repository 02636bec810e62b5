import HTTPTypes
import Logging
import Hummingbird
import NIOCore

/// Logging in and out: `POST /login` with `{"token": ...}` sets the session cookie of the role the
/// token gives (the browser keeps it a year; no script can read it); `POST /logout` clears it.
/// Wrong tokens are throttled per client (`LoginThrottle`).
enum AuthRoutes {
    struct LoginFields: Decodable {
        var token: String?
    }

    struct LoggedIn: Encodable {
        var role: String
    }

    static func collection(_ kiosk: Kiosk, credentials: KioskCredentials, throttle: LoginThrottle) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.post("/login", .public, "logs a browser in: {\"token\": ...} sets its session cookie (HttpOnly, SameSite=Strict)") { request, context in
            let client = context.client
            if let wait = throttle.wait(client) { return KioskGuard.throttled(wait) }
            return await KioskAPI.handle { () async throws(APIError) -> Response in
                let body = try await JSONBody.read(request, allowed: ["token"])
                let fields = try body.decode(LoginFields.self)
                guard let token = fields.token?.trimmed(), !token.isEmpty else {
                    throw APIError.badRequest("token is required: {\"token\": \"...\"}.")
                }
                guard credentials.required else {
                    throw APIError(.badRequest, "this kiosk has no tokens (it listens on loopback only): there is nothing to log in to.", kind: .invalidRequest)
                }
                guard let role = credentials.role(forToken: token) else {
                    if let wait = throttle.failed(client) { return KioskGuard.throttled(wait) }
                    kiosk.logger.notice("a wrong token was tried at /login from \(client)")
                    return KioskGuard.unauthorized("that is neither the booth's nor the operator's token.")
                }
                throttle.succeeded(client)
                var response = KioskAPI.encoded(LoggedIn(role: role.rawValue))
                response.headers[.setCookie] = credentials.setCookie(role, secure: KioskGuard.overTLS(request, client: client))
                return response
            }
        }

        routes.post("/logout", .public, "logs a browser out: clears its session cookie") { request, context in
            var response = KioskAPI.encoded(LoggedIn(role: "none"))
            response.headers[.setCookie] = KioskCredentials.clearCookie(secure: KioskGuard.overTLS(request, client: context.client))
            return response
        }

        return routes
    }
}

import SystemSupport
import Settings
