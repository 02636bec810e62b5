package import FoundationEssentials
import StorageUpload
import SystemSupport
package import Settings
package import Failures
package import DurableFiles

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

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}

/// A consent text as a guest is shown it, with its digest; the shot that a yes to it starts keeps
/// both (`consent.txt` and `consent.json` in its folder), so the post carries exactly that text.
package struct ConsentText: Sendable, Equatable {
    /// Characters (grapheme clusters) a consent text may have: a screen's worth.
    package static let maximumLength = 4000
    /// The names in a shot's folder and in an outbox item.
    package static let fileName = "consent.txt"
    static let recordName = "consent.json"

    package let text: String
    package let sha256: String
    package let language: String

    /// Checks the text: UTF-8, not empty, at most `maximumLength` characters, no control
    /// characters but line breaks and tabs (CR LF become LF, surrounding blank lines go).
    package init(_ text: String, language: String) throws(RecorderError) {
        var normalized = text.replacing("\r\n", with: "\n").replacing("\r", with: "\n")
        while normalized.first?.isWhitespace == true { normalized.removeFirst() }
        while normalized.last?.isWhitespace == true { normalized.removeLast() }
        guard !normalized.isEmpty else {
            throw TextProblem.consent(.empty)
        }
        if normalized.contains("\u{FFFD}") {
            throw TextProblem.consent(.notUTF8)
        }
        if let bad = normalized.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7f...0x9f).contains($0.value) }) {
            throw TextProblem.consent(.controlCharacter(bad.value, line: nil))
        }
        guard normalized.count <= Self.maximumLength else {
            throw TextProblem.consent(.tooLong(count: normalized.count, limit: Self.maximumLength, line: nil))
        }
        self.text = normalized
        self.language = language
        sha256 = FileDigest.sha256(Array(normalized.utf8))
    }

    /// A guest's yes to this text at `now`.
    package func accepted(at now: Date = Date()) -> Consent {
        Consent(textSha256: sha256, acceptedAt: RFC3339.string(now), language: language)
    }

    /// Writes the text and the yes into a shot's folder, durably.
    static func write(_ consent: Consent, text: String, into directory: String) throws(RecorderError) {
        try DurableFile.write(Data(text.utf8), to: "\(directory)/\(fileName)")
        let data: Data
        do { data = try Shot.encoder.encode(consent) } catch {
            throw RecorderError(InternalFailure.cannotEncode(what: "the consent record", detail: "\(error)"))
        }
        try DurableFile.write(data, to: "\(directory)/\(recordName)")
    }

    /// The yes kept in a shot's folder (for a recording recovered after a crash), if there is one
    /// and it matches its text.
    static func record(in directory: String) -> Consent? {
        guard let data = FileManager.default.contents(atPath: "\(directory)/\(recordName)"),
              let consent = (try? JSONDecoder().decode(Consent.self, from: data))?.trusted,
              let text = FileManager.default.contents(atPath: "\(directory)/\(fileName)"),
              FileDigest.sha256([UInt8](text)) == consent.textSha256 else { return nil }
        return consent
    }
}

/// What a shot started after a guest's yes carries: the yes and the text it was given to.
package struct GivenConsent: Sendable, Equatable {
    package let consent: Consent
    package let text: String

    package init(_ text: ConsentText, at now: Date = Date()) {
        consent = text.accepted(at: now)
        self.text = text.text
    }
}
