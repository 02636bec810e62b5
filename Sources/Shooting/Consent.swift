package import FoundationEssentials
import StorageUpload
package import SystemSupport
package import Settings
package import Failures
package import DurableFiles
package import ShotValues

/// A consent text as a guest is shown it, with its digest; the shot that a yes to it starts keeps
/// both (`consent.txt` and `consent.json` in its folder), so the post carries exactly that text.
package struct ConsentText: Sendable, Equatable {
    /// Characters (grapheme clusters) a consent text may have: a screen's worth.
    package static let maximumLength = 4000
    /// The names in a shot's folder and in an outbox item.
    package static let fileName = Consent.textFileName
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
            throw RecorderError(InternalFailure.cannotEncode(document: .consent, failure: EncodingFailure(error)))
        }
        try DurableFile.write(data, to: "\(directory)/\(recordName)")
    }

    /// The yes kept in a shot's folder (for a recording recovered after a crash), if there is one
    /// and it matches its text.
    static func record(in directory: String) -> Consent? {
        guard let data = FileSystem.dataIfReadable("\(directory)/\(recordName)"),
              let consent = (try? JSONDecoder().decode(Consent.self, from: data))?.trusted,
              let text = FileSystem.dataIfReadable("\(directory)/\(fileName)"),
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
