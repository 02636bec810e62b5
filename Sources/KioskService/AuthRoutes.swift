import HTTPTypes
import Logging
import Hummingbird
import NIOCore
import KioskHTTP
import ShareServer

/// Logging in and out: `POST /login` with `{"token": ...}` begins a session of the role the token
/// gives and sets its cookie (no script can read it); `POST /logout` ends the session on the kiosk
/// and clears the cookie. Wrong tokens are slowed per client (`LoginThrottle`); a right one never
/// is, whatever else its request carries (a forged cookie, an `Authorization: Basic`): the token
/// in the body is judged first, and a wrong one counts once.
enum AuthRoutes {
    struct LoginFields: Decodable {
        var token: String?
    }

    struct LoggedIn: Encodable {
        var role: String
    }

    static func collection(credentials: KioskCredentials, throttle: LoginThrottle, logger: Logger) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.post("/login", .public, "logs a browser in: {\"token\": ...} sets its session cookie (HttpOnly, SameSite=Strict)", body: 2048, tokenInBody: true) { request, context in
            let client = context.client
            let body = try await JSONBody.read(request, allowed: ["token"])
            let fields = try body.decode(LoginFields.self)
            guard let token = fields.token?.trimmed(), !token.isEmpty else {
                throw APIError.badRequest("token is required: {\"token\": \"...\"}.")
            }
            guard credentials.required else {
                throw APIError(.recorder(.invalidRequest), "this kiosk has no tokens (it listens on loopback only): there is nothing to log in to.")
            }
            guard let role = credentials.role(forToken: token) else {
                if let wait = throttle.failed(client) { return await KioskGuard.throttled(wait, throttle) }
                logger.notice("a wrong token was tried at /login from \(client)")
                return KioskGuard.unauthorized("that is neither the booth's nor the operator's token.")
            }
            throttle.succeeded(client)
            let cookie: String
            do throws(RecorderError) {
                cookie = try await credentials.beginSession(role, secure: KioskGuard.overTLS(request, context: context))
            } catch {
                throw APIError(error)
            }
            var response = HTTPAnswer.encoded(LoggedIn(role: role.rawValue))
            response.headers[.setCookie] = cookie
            return response
        }

        routes.post("/logout", .public, "logs a browser out: ends its session on the kiosk and clears its cookie") { request, context in
            var ended: String?
            do throws(RecorderError) {
                ended = try await credentials.endSession(request)
            } catch {
                // The session could not be taken off the list (the disk): say so, and keep the cookie
                // cleared all the same.
                logger.warning("logout: \(error.message)")
            }
            // The session ended (the operator's, on the booth's screen, leaves the booth's); with
            // none, every session cookie the browser may keep.
            var response = HTTPAnswer.encoded(LoggedIn(role: "none"))
            let secure = KioskGuard.overTLS(request, context: context)
            for name in ended.map({ [$0] }) ?? KioskCredentials.cookieNames {
                response.headers.append(HTTPField(name: .setCookie, value: KioskCredentials.clearCookie(name, secure: secure)))
            }
            return response
        }

        return routes
    }
}

import SystemSupport
import Settings
import KioskWords
import Failures
