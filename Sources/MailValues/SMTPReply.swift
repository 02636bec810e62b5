/// One complete reply of an SMTP server: its code, its text (the lines of a multi-line reply joined
/// with "\n"; control characters dropped, addresses masked, at most `maximumText` characters: it is
/// the server's, shown to people and kept in records) and the step it answered.
package struct SMTPReply: Sendable, Equatable, Codable, CustomStringConvertible {
    package static let maximumText = 400

    package var code: Int
    package var text: String
    package var step: SMTPStep

    package init(code: Int, text: String, step: SMTPStep) {
        self.code = code
        self.text = text
        self.step = step
    }

    /// 4xx: the server did not take it now; the same may work later.
    package var isTemporary: Bool { code / 100 == 4 }
    /// 5xx: the server will not take it as it is.
    package var isPermanent: Bool { code / 100 == 5 }
    package var isPositive: Bool { code / 100 == 2 || code / 100 == 3 }

    /// The RFC 3463 enhanced status code the text starts with ("5.1.1"), if any.
    package var enhancedStatus: String? {
        guard let first = text.split(separator: " ", maxSplits: 1).first else { return nil }
        let parts = first.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, ["2", "4", "5"].contains(parts[0]),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) }) else { return nil }
        return String(first)
    }

    /// `text` with every email address in it masked (`<g***@e***.org>`): a server's refusal
    /// often repeats the guest's address ("5.1.1 <guest@example.org>: Recipient address
    /// rejected"), and its words are kept in records and shown to operators, who see no address.
    package static func maskingAddresses(_ text: String) -> String {
        text.replacing(/[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)+/) { match in
            (try? MailAddress(String(match.output.0)))?.masked ?? "***@***"
        }
    }

    /// "451 4.7.1 Try again later" (the server's words, as data).
    package var description: String { text.isEmpty ? "\(code)" : "\(code) \(text)" }
}
