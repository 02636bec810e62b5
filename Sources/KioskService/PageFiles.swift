import HTTPTypes
import Hummingbird
import NIOCore

/// The kiosk's page files: HTML, CSS and JavaScript kept as files in `Sources/KioskService/Pages`
/// (linted and unit-tested there: Tests/pages) and put into the binary at build time by the
/// EmbedPages plugin. The HTML is served by its page's route; scripts and styles at
/// `/assets/<name>`, so every page runs under a CSP with no inline script or style.
enum PageFiles {
    /// What every answer of the kiosk may load: its own scripts, styles, pictures and videos and
    /// nothing else; no inline script or style, no plugin, no frame, no form sent elsewhere.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The text of page file `name`. Every name the kiosk asks for is one of its own files, put in
    /// by the build: a missing one is a build mistake, not a request's.
    static func text(_ name: String) -> String {
        guard let text = EmbeddedPages.files[name] else { preconditionFailure("page file \(name) was not embedded (Sources/KioskService/Pages)") }
        return text
    }

    /// The answer for `/assets/<name>`: a script or a style sheet, or nil (404) for anything else.
    static func asset(_ name: String) -> Response? {
        let type: String
        if name.hasSuffix(".js") {
            type = "text/javascript; charset=utf-8"
        } else if name.hasSuffix(".css") {
            type = "text/css; charset=utf-8"
        } else {
            return nil
        }
        guard let text = EmbeddedPages.files[name] else { return nil }
        var headers = HTTPFields()
        headers[.contentType] = type
        // The files change only with the binary: a browser asks again after a restart at most.
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `template` with each `{{name}}` replaced by `values[name]` (already escaped for where it
    /// goes), in one pass: a value is never searched for placeholders itself, so a caption that
    /// says `{{video}}` stays text. An unknown placeholder is left as it is.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        out.reserveCapacity(template.utf8.count)
        var rest = template[...]
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstRange(of: "}}"), let value = values[String(after[..<close.lowerBound])] else {
                out += "{{"
                rest = after
                continue
            }
            out += value
            rest = after[close.upperBound...]
        }
        out += rest
        return out
    }
}
