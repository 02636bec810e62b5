import Settings
import SystemSupport

/// The session cookie: what it holds, signed with the store's key, and how it is read back.
extension SessionStore {
    /// HMAC-SHA256 of `message` under `key` (32 bytes), handed in by whoever opens the store: this
    /// module links no crypto library (the kiosk hands in libcrypto's, `MessageAuthentication`).
    package typealias Authenticator = @Sendable (_ key: [UInt8], _ message: [UInt8]) -> [UInt8]

    /// `v1.<role>.<id>.<issued>.<expires>.<mac>`: cookie-safe, and nothing in it is secret but
    /// what the MAC proves.
    static func cookie(_ session: Session, key: String, _ authenticate: Authenticator) -> String {
        let signed = "v1.\(session.role.rawValue).\(session.id).\(session.issuedAt).\(session.expiresAt)"
        return signed + "." + mac(signed, key: key, authenticate)
    }

    struct Parsed {
        var signed: String
        var role: KioskRole
        var id: String
        var issuedAt: Int64
        var expiresAt: Int64
        var mac: String
    }

    static func parse(_ cookie: String) -> Parsed? {
        let parts = cookie.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "v1", let role = KioskRole(rawValue: String(parts[1])), parts[2].utf8.count == 32,
              let issued = Int64(parts[3]), let expires = Int64(parts[4]), parts[5].utf8.count == 64 else { return nil }
        return Parsed(signed: parts[0...4].joined(separator: "."), role: role, id: String(parts[2]), issuedAt: issued, expiresAt: expires,
                      mac: String(parts[5]))
    }

    static func mac(_ text: String, key: String, _ authenticate: Authenticator) -> String {
        authenticate(Array(key.utf8), Array(("recorder kiosk session " + text).utf8)).hex
    }

    static func fingerprint(_ role: KioskRole, _ token: String, key: String, _ authenticate: Authenticator) -> String {
        mac("token \(role.rawValue) \(token)", key: key, authenticate)
    }

    static func newKey() -> String { randomHex(32) }

    static func randomHex(_ bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }.hex
    }
}
