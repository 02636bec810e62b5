import HTTPTypes
import Hummingbird
import Publishing
import Settings
import SystemSupport
import KioskWords
package import KioskHTTP
import Failures

/// The kiosk's two tokens and the sessions a browser earns at `/login`.
///
/// The session cookie is set by the server (`HttpOnly`: no script reads it; `SameSite=Strict`: no
/// other site's page makes the browser send it). Its value names a session on the kiosk's list
/// (`SessionStore`), never a token: logging out, an operator's 12 idle hours, a changed token and
/// `recorder kiosk --end-sessions` end it on the server, whatever the browser keeps.
package struct KioskCredentials: Sendable {
    package static let cookieName = "recorder_session"

    /// Token per role; empty when no token is set (loopback only: everybody is the operator).
    private let roles: [(role: KioskRole, token: String)]
    /// The sessions; nil when no token is set.
    package let sessions: SessionStore?

    package init(operatorToken: String?, boothToken: String?, sessions: SessionStore?) {
        var roles: [(KioskRole, String)] = []
        if let operatorToken { roles.append((.operator, operatorToken)) }
        if let boothToken { roles.append((.booth, boothToken)) }
        self.roles = roles
        self.sessions = roles.isEmpty ? nil : sessions
    }

    /// Whether any token is set; without one the kiosk only listens on loopback.
    package var required: Bool { !roles.isEmpty }

    /// The tokens by role, for the session store.
    package static func tokens(operatorToken: String?, boothToken: String?) -> [KioskRole: String] {
        var tokens: [KioskRole: String] = [:]
        tokens[.operator] = operatorToken
        tokens[.booth] = boothToken
        return tokens
    }

    /// The role a token gives, compared in constant time against each; nil for a wrong one.
    package func role(forToken token: String) -> KioskRole? {
        var found: KioskRole?
        // Every role is compared, so the time does not say which one nearly matched.
        for entry in roles where ShareToken.equal(token, entry.token) { found = entry.role }
        return found
    }

    /// What a request presented.
    enum Presented: Equatable {
        case nothing
        case valid(KioskIdentity)
        /// A bearer token that is no token of this kiosk's.
        case wrongToken
        /// A session cookie the kiosk never made (no valid MAC): a guess.
        case forgedCookie
        /// The cookie of a session that has ended.
        case endedSession
    }

    func presented(_ request: Request) async -> Presented {
        guard required else { return .valid(KioskIdentity(role: .operator, via: .loopbackOnly)) }
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("bearer ") else { return .wrongToken }
            let token = String(header.dropFirst(7)).trimmed()
            return role(forToken: token).map { .valid(KioskIdentity(role: $0, via: .bearer)) } ?? .wrongToken
        }
        guard let value = Self.cookie(named: Self.cookieName, in: request), !value.isEmpty else { return .nothing }
        switch await sessions?.check(value) ?? .forged {
        case .valid(let role): return .valid(KioskIdentity(role: role, via: .cookie))
        case .ended: return .endedSession
        case .forged: return .forgedCookie
        }
    }

    /// The value of cookie `name` (the last one, if the browser sent it twice), as sent.
    static func cookie(named name: String, in request: Request) -> String? {
        RequestCookies.value(named: name, in: request)
    }

    /// A new session for `role` and the `Set-Cookie` that hands it to the browser; `secure` when
    /// the page was reached over TLS.
    func beginSession(_ role: KioskRole, secure: Bool) async throws(RecorderError) -> String {
        guard let sessions else { throw .kiosk(.noTokens) }
        let (value, seconds) = try await sessions.begin(role)
        return Self.cookieHeader(value: value, maxAge: Int(seconds), secure: secure)
    }

    /// Ends the session the request's cookie names, on the server.
    func endSession(_ request: Request) async throws(RecorderError) {
        guard let value = Self.cookie(named: Self.cookieName, in: request), !value.isEmpty else { return }
        try await sessions?.end(cookie: value)
    }

    /// `Set-Cookie` that makes the browser forget the session.
    static func clearCookie(secure: Bool) -> String {
        cookieHeader(value: "", maxAge: 0, secure: secure)
    }

    private static func cookieHeader(value: String, maxAge: Int, secure: Bool) -> String {
        "\(cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

}
