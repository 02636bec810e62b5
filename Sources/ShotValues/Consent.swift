import SystemSupport

/// A guest's yes to the kiosk's consent text (`kiosk.consent`), as the shot and its post record it
/// (`consent` in shot.json and in the post's metadata). The text itself is stored once in the store,
/// at `consent/<textSha256>.txt`, so an operator can show what each guest agreed to.
package struct Consent: Sendable, Codable, Hashable {
    /// Lowercase hex SHA-256 of the text's UTF-8 bytes.
    package var textSha256: String
    /// When the guest said yes: UTC, RFC 3339.
    package var acceptedAt: String
    /// The language the text was shown in (`kiosk.language`).
    package var language: String

    package init(textSha256: String, acceptedAt: String, language: String) {
        self.textSha256 = textSha256
        self.acceptedAt = acceptedAt
        self.language = language
    }

    /// The text's name in a shot's folder and in an outbox item (`ConsentText.fileName`).
    package static let textFileName = "consent.txt"

    /// Where a text with this digest is kept in the store.
    package static func textKey(sha256: String) -> String { "consent/\(sha256).txt" }

    /// The record as read from a store or a shot folder, or nil when any part of it has the wrong
    /// form: its digest names a key, so nothing but 64 lowercase hex digits is believed.
    package var trusted: Consent? {
        guard Self.isDigest(textSha256), RFC3339.date(acceptedAt) != nil,
              (2...8).contains(language.utf8.count), language.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) })
        else { return nil }
        return self
    }

    package static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
