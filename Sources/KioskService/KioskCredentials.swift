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
///
/// Each role's session has a cookie of its own (`cookieName(for:)`): an operator who logs in on the
/// booth's screen adds a session beside the booth's, never replaces it, so when the operator's ends
/// (logged out, or 12 hours without an operator's action) the screen is the booth's again.
package struct KioskCredentials: Sendable {
    /// The booth's session cookie (and, from before each role had a cookie of its own, any session's).
    package static let cookieName = "recorder_session"
    /// The operator's session cookie.
    package static let operatorCookieName = "recorder_operator"
    /// Every session cookie's name, the strongest role's last.
    static let cookieNames = [cookieName, operatorCookieName]

    /// The cookie a session of `role` is kept in.
    package static func cookieName(for role: KioskRole) -> String { role == .operator ? operatorCookieName : cookieName }

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

    /// What a request presented: who it is (nil: nobody), what it presented that is no token of the
    /// kiosk's (a guess), and the session cookies the browser should forget (ended, or not the
    /// kiosk's).
    struct Presented: Equatable {
        var identity: KioskIdentity?
        var wrong: WrongCredentials.Kind?
        var stale: [String] = []
    }

    /// A bearer token decides alone; else each session cookie, the strongest valid one's role
    /// winning (the operator's beside the booth's, on the booth's screen). A forged cookie is a
    /// guess only when no valid session came with it.
    func presented(_ request: Request) async -> Presented {
        guard required else { return Presented(identity: KioskIdentity(role: .operator, via: .loopbackOnly)) }
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("bearer ") else { return Presented(wrong: .token) }
            let token = String(header.dropFirst(7)).trimmed()
            return role(forToken: token).map { Presented(identity: KioskIdentity(role: $0, via: .bearer)) } ?? Presented(wrong: .token)
        }
        var presented = Presented()
        var forged = false
        for name in Self.cookieNames {
            guard let value = Self.cookie(named: name, in: request), !value.isEmpty else { continue }
            switch await sessions?.check(value) ?? .forged {
            case .valid(let role):
                if let sessions, presented.identity == nil || role == .operator {
                    presented.identity = KioskIdentity(role: role, via: .cookie, session: .init(store: sessions, cookie: value))
                }
            case .ended:
                presented.stale.append(name)
            case .forged:
                forged = true
                presented.stale.append(name)
            }
        }
        if forged && presented.identity == nil { presented.wrong = .forgedCookie }
        return presented
    }

    /// The value of cookie `name` (the last one, if the browser sent it twice), as sent.
    static func cookie(named name: String, in request: Request) -> String? {
        RequestCookies.value(named: name, in: request)
    }

    /// A new session for `role` and the `Set-Cookie` that hands it to the browser (in the role's
    /// own cookie); `secure` when the page was reached over TLS.
    func beginSession(_ role: KioskRole, secure: Bool) async throws(RecorderError) -> String {
        guard let sessions else { throw .kiosk(.noTokens) }
        let (value, seconds) = try await sessions.begin(role)
        return Self.cookieHeader(Self.cookieName(for: role), value: value, maxAge: Int(seconds), secure: secure)
    }

    /// Ends, on the server, the strongest session the request's cookies name (the operator's, on
    /// the booth's screen, leaves the booth's); returns its cookie's name, for the browser to forget.
    func endSession(_ request: Request) async throws(RecorderError) -> String? {
        guard let sessions else { return nil }
        for name in Self.cookieNames.reversed() {
            guard let value = Self.cookie(named: name, in: request), !value.isEmpty, case .valid = await sessions.check(value) else { continue }
            try await sessions.end(cookie: value)
            return name
        }
        return nil
    }

    /// `Set-Cookie` that makes the browser forget the session cookie `name`.
    static func clearCookie(_ name: String = cookieName, secure: Bool) -> String {
        cookieHeader(name, value: "", maxAge: 0, secure: secure)
    }

    private static func cookieHeader(_ name: String, value: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
