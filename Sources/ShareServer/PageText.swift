import HTTPTypes
package import Hummingbird
import NIOCore

/// What every page of the kiosk and the share server shares: the one content security policy,
/// templates filled in one pass, and the answers that carry a page, a script or a style sheet.
/// Each module keeps its page files in its own `Pages/` folder (put into the binary by the
/// EmbedPages plugin): the share pages and the host's gallery here (`ShareFiles`), the booth's
/// and the operator's in KioskService.
package enum PageText {
    /// What every answer may load: its own scripts, styles, pictures and videos and nothing else;
    /// no inline script or style, no plugin, no frame, no form sent elsewhere.
    package static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// `template` with each `{{name}}` replaced by `values[name]` (already escaped for where it
    /// goes), in one pass: a value is never searched for placeholders itself, so a caption that
    /// says `{{video}}` stays text. An unknown placeholder is left as it is.
    package static func fill(_ template: String, _ values: [String: String]) -> String {
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

    /// The answer for `/assets/<name>` from `files`: a script or a style sheet, or nil (404) for
    /// anything else.
    package static func asset(_ name: String, in files: [String: String]) -> Response? {
        let type: String
        if name.hasSuffix(".js") {
            type = "text/javascript; charset=utf-8"
        } else if name.hasSuffix(".css") {
            type = "text/css; charset=utf-8"
        } else {
            return nil
        }
        guard let text = files[name] else { return nil }
        var headers = HTTPFields()
        headers[.contentType] = type
        // The files change only with the binary: a browser asks again after a restart at most.
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A page's answer: HTML, never stored.
    package static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

/// The share server's page files (Sources/ShareServer/Pages): the share page, its answers, the
/// host's gallery, and the scripts and style sheets they use, which the kiosk serves too.
package enum ShareFiles {
    /// The text of page file `name`; a missing one is a build mistake, not a request's.
    static func text(_ name: String) -> String {
        guard let text = EmbeddedPages.files[name] else { preconditionFailure("page file \(name) was not embedded (Sources/ShareServer/Pages)") }
        return text
    }

    /// The answer for `/assets/<name>` when it is one of this module's scripts or style sheets.
    package static func asset(_ name: String) -> Response? {
        PageText.asset(name, in: EmbeddedPages.files)
    }
}
