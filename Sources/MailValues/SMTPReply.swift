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
    ///
    /// Each of `addresses` (the ones the message went to: what the server may echo) is masked
    /// wherever the text names it, in every spelling a server gives it back: as sent, lower- or
    /// upper-cased, in `<>`, with its local part quoted (`"o'r"@example.org`). Then anything else
    /// shaped like an address: a local part of every character RFC 5322's atext allows (`' / ! {
    /// } | ~` and the rest, which a narrower pattern cut short and left half the address shown:
    /// `x{rej}y***@e***.com`), or a quoted one.
    package static func maskingAddresses(_ text: String, addresses: [MailAddress] = []) -> String {
        var text = text
        for address in addresses {
            for spelling in [address.text, "\"\(address.localPart)\"@\(address.domain)"] {
                text = replacingIgnoringASCIICase(spelling, in: text, with: address.masked)
            }
        }
        // A dot-atom local part (RFC 5322 atext and dots) or a quoted one, `@`, a dotted domain.
        return text.replacing(/(?:[A-Za-z0-9.!#$%&'*+\/=?^_`{|}~\-]+|"[^"\r\n]*")@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+/) { match in
            (try? MailAddress(String(match.output)))?.masked ?? "***@***"
        }
    }

    /// `text` with each occurrence of the ASCII `needle`, in any letter case, replaced.
    private static func replacingIgnoringASCIICase(_ needle: String, in text: String, with replacement: String) -> String {
        func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5a).contains(byte) ? byte | 0x20 : byte }
        let wanted = needle.utf8.map(folded), bytes = Array(text.utf8)
        guard !wanted.isEmpty, bytes.count >= wanted.count else { return text }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            // (an ASCII needle never matches inside a multi-byte character: those bytes are all >= 0x80)
            if index + wanted.count <= bytes.count, zip(bytes[index..<(index + wanted.count)], wanted).allSatisfy({ folded($0) == $1 }) {
                out += replacement.utf8
                index += wanted.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// "451 4.7.1 Try again later" (the server's words, as data).
    package var description: String { text.isEmpty ? "\(code)" : "\(code) \(text)" }
}
