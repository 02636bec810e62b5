import Foundation

/// A page's `<form>` as its opening tag says (the kiosk's own templates: attributes in double
/// quotes): tests judge where a form posts, not whether a path appears somewhere in the page.
struct HTMLForm: Equatable, CustomStringConvertible {
    /// Lower case; "get" when the tag names none, as a browser takes it.
    let method: String
    /// The `action` attribute, its character references decoded; "" when absent.
    let action: String

    init(method: String, action: String) {
        self.method = method
        self.action = action
    }

    /// The forms of `page`, in order.
    static func all(in page: String) -> [HTMLForm] {
        var forms: [HTMLForm] = []
        var rest = Substring(page)
        while let open = rest.range(of: "<form", options: .caseInsensitive) {
            // "<formula>" or "<form-x>" is no form: the name ends at a space or the tag's end.
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else { break }
            let tag = rest[open.upperBound..<close]
            rest = rest[rest.index(after: close)...]
            guard tag.isEmpty || tag.first!.isWhitespace || tag.first == "/" else { continue }
            var attributes: [String: String] = [:]
            for match in tag.matches(of: /([A-Za-z][A-Za-z0-9-]*)\s*=\s*"([^"]*)"/) {
                attributes[match.1.lowercased()] = decoded(match.2)
            }
            forms.append(HTMLForm(method: (attributes["method"] ?? "get").lowercased(), action: attributes["action"] ?? ""))
        }
        return forms
    }

    /// An attribute value with the references `HTMLText.escaped` writes decoded.
    private static func decoded(_ value: Substring) -> String {
        String(value).replacing("&quot;", with: "\"").replacing("&#39;", with: "'")
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }

    var description: String { "<form method=\"\(method)\" action=\"\(action)\">" }
}
