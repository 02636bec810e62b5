/// An e-mail address fit for an SMTP envelope and a message's header: `local@domain`, checked
/// against RFC 5321's lengths and kept to the plain dot-atom form, so it can go into `MAIL FROM`,
/// `RCPT TO` and a `To:` field as it is, with nothing to quote or escape (libcurl passes CR/LF
/// through to the server: nothing unchecked reaches it).
///
/// Only ASCII: a non-ASCII address needs SMTPUTF8 all along its way, which a booth cannot know.
package struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// Why a text is not an address this module sends to. Cases, not sentences: the edge that
    /// shows the problem words it.
    package enum Problem: Error, Sendable, Equatable, Encodable {
        case empty
        /// No `@`, or more than one (the count).
        case atSigns(count: Int)
        /// Nothing before the `@`.
        case emptyLocalPart
        /// Nothing after the `@`.
        case emptyDomain
        /// RFC 5321 4.5.3.1.1: at most 64 octets before the `@`.
        case localPartTooLong(octets: Int)
        /// RFC 5321 4.5.3.1.2: at most 255 octets after it.
        case domainTooLong(octets: Int)
        /// RFC 5321 4.5.3.1.3 (a path of at most 256 octets, with its angle brackets): 254 in all.
        case tooLong(octets: Int)
        /// A control character (the scalar's value), CR and LF included.
        case controlCharacter(UInt32)
        /// A space or a tab.
        case space
        /// A character beyond ASCII (the scalar's value).
        case nonASCII(UInt32)
        /// A character the plain form of the local part does not allow (`<`, `,`, `"`, ...).
        case characterNotAllowed(String)
        /// A dot at either end of the local part, or two in a row.
        case misplacedDot
        /// The domain is not dot-separated labels of letters, digits and inner hyphens (each at
        /// most 63 octets), with at least one dot.
        case badDomain
    }

    package static let maximumLength = 254
    package static let maximumLocalPart = 64
    package static let maximumDomain = 255

    /// The address as given (case kept: the local part is the receiving server's to interpret).
    package let text: String
    package let localPart: Substring
    package let domain: Substring

    /// Checks `text` exactly as given (an edge trims what a person typed around it first).
    package init(_ text: String) throws(Problem) {
        guard !text.isEmpty else { throw .empty }
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7f { throw .controlCharacter(scalar.value) }
            if scalar == " " { throw .space }
            if scalar.value > 0x7e { throw .nonASCII(scalar.value) }
        }
        let ats = text.count(where: { $0 == "@" })
        guard ats == 1, let at = text.firstIndex(of: "@") else { throw .atSigns(count: ats) }
        let local = text[..<at], domain = text[text.index(after: at)...]
        guard !local.isEmpty else { throw .emptyLocalPart }
        guard !domain.isEmpty else { throw .emptyDomain }
        guard local.utf8.count <= Self.maximumLocalPart else { throw .localPartTooLong(octets: local.utf8.count) }
        guard domain.utf8.count <= Self.maximumDomain else { throw .domainTooLong(octets: domain.utf8.count) }
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(octets: text.utf8.count) }
        // RFC 5322 dot-atom: atext and single inner dots.
        let atextSymbols: Set<Character> = ["!", "#", "$", "%", "&", "'", "*", "+", "-", "/", "=", "?", "^", "_", "`", "{", "|", "}", "~"]
        for c in local where !(c.isASCII && (c.isLetter || c.isNumber)) && !atextSymbols.contains(c) && c != "." {
            throw .characterNotAllowed(String(c))
        }
        guard local.first != ".", local.last != ".", !local.contains("..") else { throw .misplacedDot }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy(Self.isLabel) else { throw .badDomain }
        self.text = text
        self.localPart = local
        self.domain = domain
    }

    /// RFC 1035 / 1123: 1-63 letters, digits and hyphens, no hyphen at either end.
    private static func isLabel(_ label: Substring) -> Bool {
        !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
            && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    package var description: String { text }

    /// The address with most of it hidden, for lists an operator sees: `g***@e***.com`.
    package var masked: String {
        let tld = domain.split(separator: ".").last.map { "." + $0 } ?? ""
        return "\(localPart.prefix(1))***@\(domain.prefix(1))***\(tld)"
    }
}
