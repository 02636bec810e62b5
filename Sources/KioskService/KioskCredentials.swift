import HTTPTypes
import Hummingbird
import Publishing
import Settings
import SystemSupport

/// The kiosk's two tokens and the session cookie each one earns at `/login`.
///
/// The cookie is set by the server (`HttpOnly`: no script reads it; `SameSite=Strict`: no other
/// site's page makes the browser send it). Its value is an HMAC of the token, not the token: it is
/// a fixed, cookie-safe text (a token may hold any printable character, `+`, `/`, `;` included),
/// it survives a restart of the kiosk (the booth's unattended browser stays logged in), and it stops
/// working when the token is changed.
package struct KioskCredentials: Sendable {
    package static let cookieName = "recorder_session"
    /// A year: the booth's browser logs in once.
    static let cookieSeconds = 365 * 24 * 3600

    /// Token and cookie value per role; empty when no token is set (loopback only: everybody is the operator).
    private let roles: [(role: KioskRole, token: String, cookie: String)]

    package init(operatorToken: String?, boothToken: String?) {
        var roles: [(KioskRole, String, String)] = []
        if let operatorToken { roles.append((.operator, operatorToken, Self.cookieValue(.operator, token: operatorToken))) }
        if let boothToken { roles.append((.booth, boothToken, Self.cookieValue(.booth, token: boothToken))) }
        self.roles = roles
    }

    /// Whether any token is set; without one the kiosk only listens on loopback.
    package var required: Bool { !roles.isEmpty }

    static func cookieValue(_ role: KioskRole, token: String) -> String {
        let mac = MessageAuthentication.sha256(key: Array(token.utf8), Array("recorder kiosk session v1 \(role.rawValue)".utf8))
        return role.rawValue + "." + mac.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// The role a token gives, compared in constant time against each; nil for a wrong one.
    package func role(forToken token: String) -> KioskRole? {
        var found: KioskRole?
        // Every role is compared, so the time does not say which one nearly matched.
        for entry in roles where ShareToken.equal(token, entry.token) { found = entry.role }
        return found
    }

    func role(forCookie value: String) -> KioskRole? {
        var found: KioskRole?
        for entry in roles where ShareToken.equal(value, entry.cookie) { found = entry.role }
        return found
    }

    func cookie(for role: KioskRole) -> String? {
        roles.first { $0.role == role }?.cookie
    }

    /// What a request presented.
    enum Presented: Equatable {
        case nothing
        case valid(KioskIdentity)
        /// A bearer token that is no token of this kiosk's.
        case wrongToken
        /// A session cookie that no longer matches (the token was changed) or was made up.
        case staleCookie
    }

    func presented(_ request: Request) -> Presented {
        guard required else { return .valid(KioskIdentity(role: .operator, via: .loopbackOnly)) }
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("bearer ") else { return .wrongToken }
            let token = String(header.dropFirst(7)).trimmed()
            return role(forToken: token).map { .valid(KioskIdentity(role: $0, via: .bearer)) } ?? .wrongToken
        }
        guard let value = Self.cookie(named: Self.cookieName, in: request) else { return .nothing }
        return role(forCookie: value).map { .valid(KioskIdentity(role: $0, via: .cookie)) } ?? .staleCookie
    }

    /// The value of cookie `name` (the last one, if the browser sent it twice), as sent.
    static func cookie(named name: String, in request: Request) -> String? {
        var found: String?
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let pair = pair.drop(while: { $0 == " " })
                if pair.hasPrefix(name + "=") { found = String(pair.dropFirst(name.count + 1)).trimmed() }
            }
        }
        return found
    }

    /// `Set-Cookie` for a login as `role`; `secure` when the page was reached over TLS.
    func setCookie(_ role: KioskRole, secure: Bool) -> String? {
        cookie(for: role).map { Self.cookieHeader(value: $0, maxAge: Self.cookieSeconds, secure: secure) }
    }

    /// `Set-Cookie` that makes the browser forget the session.
    static func clearCookie(secure: Bool) -> String {
        cookieHeader(value: "", maxAge: 0, secure: secure)
    }

    private static func cookieHeader(value: String, maxAge: Int, secure: Bool) -> String {
        "\(cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

}
