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
