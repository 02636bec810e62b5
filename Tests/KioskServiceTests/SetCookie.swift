import Foundation
import HTTPTypes

/// A `Set-Cookie` header, parsed (RFC 6265, section 5.2): tests judge the cookie's name, value and
/// attributes, not the header's text.
struct SetCookie: CustomStringConvertible {
    let name: String
    let value: String
    /// Each attribute by its name in lower case (`httponly`, `path`, `max-age`); a flag's is "".
    let attributes: [String: String]
    /// The header as sent: for failure messages, and a search for leaked text.
    let header: String

    /// Parses one `Set-Cookie` value; nil when it names no cookie (no `name=` before the first `;`).
    init?(_ header: String) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
        name = String(pair[..<equals])
        value = String(pair[pair.index(after: equals)...])
        var attributes: [String: String] = [:]
        for part in parts where !part.isEmpty {
            let field = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            attributes[field[0].trimmingCharacters(in: .whitespaces).lowercased()] = field.count == 2 ? field[1].trimmingCharacters(in: .whitespaces) : ""
        }
        self.attributes = attributes
        self.header = header
    }

    /// The response's one `Set-Cookie`; nil when it sets none, or more than one (which a check
    /// of one cookie must not pick from).
    static func only(in headers: HTTPFields) -> SetCookie? {
        let values = headers[values: .setCookie]
        return values.count == 1 ? SetCookie(values[0]) : nil
    }

    var httpOnly: Bool { attributes["httponly"] != nil }
    var secure: Bool { attributes["secure"] != nil }
    var path: String? { attributes["path"] }
    var sameSite: String? { attributes["samesite"] }
    /// nil when absent or not a number.
    var maxAge: Int? { attributes["max-age"].flatMap { Int($0) } }
    /// `name=value`, as the browser sends it back in `Cookie`.
    var pair: String { "\(name)=\(value)" }

    var description: String { header }
}
