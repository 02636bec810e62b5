package import Hummingbird
import HTTPTypes
import Failures

extension WrongCredentials {
    /// What a route answers a request that presented these wrong credentials before it looks at
    /// anything else: a wrong token is counted and refused (401; 429, held back, once its address
    /// is slowed); a forged session cookie is counted too, and the request goes on as nobody's
    /// (nil) until its address is slowed. Here, below the routes of every server (`GuardedRoutes`).
    package func refusal(client: ClientAddress) async -> Response? {
        if let wait = throttle.failed(client) {
            await throttle.slow(wait)
            return Self.throttled(wait)
        }
        switch kind {
        case .token:
            var response = APIError(.unauthorized, "the token sent in Authorization is not this kiosk's. Send the booth's or the operator's token: Authorization: Bearer TOKEN.").response
            response.headers[.wwwAuthenticate] = "Bearer realm=\"recorder\""
            return response
        case .forgedCookie:
            return nil
        }
    }

    /// 429 for a wrong token from a client that must wait `seconds`.
    package static func throttled(_ seconds: Int) -> Response {
        var response = APIError(.tooMany, "too many wrong tokens from this address: try again in \(seconds) s.").response
        response.headers[.retryAfter] = String(seconds)
        return response
    }
}
