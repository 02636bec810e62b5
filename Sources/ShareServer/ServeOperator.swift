import FoundationEssentials
import HTTPTypes
package import Hummingbird
package import SystemSupport
import Publishing
package import KioskHTTP

/// The operator on the share server (`serve.token_file`): the fleet page's data needs the token,
/// as a bearer token (a program) or the cookie `POST /login` sets (a browser). The share server
/// keeps nothing between requests, and several may answer behind a load balancer, so the cookie
/// is no session on a list: it carries its expiry, sealed (HMAC-SHA256) under the token itself, so
/// every server with the token accepts it until it expires, and changing the token ends them all.
/// Logging out forgets it in the browser; a copy taken before works until it expires (12 hours).
package struct ServeOperator: Sendable {
    /// The cookie the browser keeps.
    package static let cookieName = "recorder_serve_operator"
    /// How long a login lasts: an operator's working day, as an idle session on the kiosk.
    package static let lifetime: Int64 = 12 * 3600

    private let token: String
    private let clock: any RecorderClock
    /// Wrong tokens per client (per server: each counts its own).
    package let throttle: LoginThrottle

    package init(token: String, clock: any RecorderClock) {
        self.token = token
        self.clock = clock
        throttle = LoginThrottle(clock: clock)
    }

    /// Whether `candidate` is the token, compared in constant time.
    package func isToken(_ candidate: String) -> Bool { ShareToken.equal(candidate, token) }

    /// A new login's `Set-Cookie`; `secure` when the page was reached over TLS.
    package func loginCookie(secure: Bool) -> String {
        let expires = Int64(clock.date.timeIntervalSince1970) + Self.lifetime
        return Self.cookieHeader("\(expires).\(seal(expires))", maxAge: Self.lifetime, secure: secure)
    }

    /// `Set-Cookie` that makes the browser forget the login.
    package static func clearCookie(secure: Bool) -> String { cookieHeader("", maxAge: 0, secure: secure) }

    /// Who a request is: the operator by a right bearer token or a valid cookie; a wrong bearer
    /// token or a cookie not sealed under the token (forged, expired, or from before the token
    /// changed) is a guess for the route to judge. Another scheme in `Authorization` (a proxy's
    /// own Basic login) is none of the share server's business.
    func presented(_ request: Request) -> (identity: KioskIdentity?, wrong: WrongCredentials.Kind?) {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            return isToken(String(header.dropFirst(7)).trimmed()) ? (KioskIdentity(role: .operator, via: .bearer), nil) : (nil, .token)
        }
        guard let cookie = RequestCookies.value(named: Self.cookieName, in: request), !cookie.isEmpty else { return (nil, nil) }
        return isValid(cookie) ? (KioskIdentity(role: .operator, via: .cookie), nil) : (nil, .forgedCookie)
    }

    /// A cookie sealed under the token that has not expired.
    func isValid(_ cookie: String) -> Bool {
        let parts = cookie.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let expires = Int64(parts[0]), expires > Int64(clock.date.timeIntervalSince1970) else { return false }
        return ConstantTime.equal(String(parts[1]), seal(expires))
    }

    /// The expiry's HMAC under the token, hex.
    private func seal(_ expires: Int64) -> String {
        MessageAuthentication.sha256(key: Array(token.utf8), Array("recorder serve operator until \(expires)".utf8)).hex
    }

    private static func cookieHeader(_ value: String, maxAge: Int64, secure: Bool) -> String {
        "\(cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
