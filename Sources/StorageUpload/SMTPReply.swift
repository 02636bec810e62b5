/// The steps of one SMTP conversation, in order (RFC 5321 3.3, RFC 3207, RFC 4954), as libcurl
/// takes them: what a reply answered, or how far a conversation got.
package enum SMTPStep: Int, Sendable, Equatable, Comparable, CaseIterable {
    /// The server's greeting (220), before any command.
    case greeting
    /// EHLO (or HELO).
    case hello
    /// STARTTLS, then the TLS handshake.
    case startTLS
    /// AUTH and its challenges.
    case authentication
    /// MAIL FROM: the envelope's sender.
    case mailFrom
    /// RCPT TO: the recipient.
    case recipient
    /// DATA, which the server answers 354 to before the message is sent.
    case data
    /// The message's lines going out.
    case message
    /// The whole message handed over with its final dot, and the server's reply to it awaited:
    /// that reply says whether it took the message.
    case endOfMessage

    package static func < (a: SMTPStep, b: SMTPStep) -> Bool { a.rawValue < b.rawValue }

    /// The step's name (`endOfMessage`), as records keep it.
    package var name: String { String(describing: self) }
}

// By name in records (a queued mail's last failure), not by its place in the order.
extension SMTPStep: Codable {
    package init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let step = Self.allCases.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no SMTP step \(name)"))
        }
        self = step
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// One complete reply of an SMTP server: its code, its text (the lines of a multi-line reply joined
/// with "\n"; control characters dropped, at most `maximumText` characters: it is the server's,
/// shown to people and kept in records) and the step it answered.
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

    /// "451 4.7.1 Try again later" (the server's words, as data).
    package var description: String { text.isEmpty ? "\(code)" : "\(code) \(text)" }
}
