package import FoundationEssentials
import StorageUpload
package import MailValues

/// A guest's mail: a text part and an HTML part with the share link, the poster JPEG inline in
/// the HTML (never the video: mail size limits), as one RFC 5322 message with MIME parts:
///
///     multipart/alternative
///       text/plain; charset=utf-8            (quoted-printable)
///       multipart/related; type="text/html"  (only with a poster)
///         text/html; charset=utf-8           (quoted-printable)
///         image/jpeg, Content-ID             (base64, inline)
///
/// Every line ends with CRLF; the parts' lines are at most 76 characters, the header's 78 but for
/// addresses and ids (RFC 5322's limit is 998, which they keep to), and it is all 7-bit ASCII. Text that comes from people (a caption, an event's name) reaches the header only
/// through `MIMEText.headerText`, which turns line breaks into spaces and encodes the rest, so it
/// cannot add a header field. The same message gives the same bytes each time it is made: its
/// Message-ID comes from the post and the recipient, so a resend is recognisably the same message.
package struct MailMessage: Sendable {
    package var from: MailAddress
    /// The sender's display name ("Photo booth"), or empty.
    package var fromName: String
    package var to: MailAddress
    package var postID: String
    package var subject: MailTemplate
    package var body: MailTemplate
    /// The fields' values: `.link` the share link; `.caption`, `.event` as people wrote them;
    /// `.expires` as the edge words the date (or empty without retention).
    package var values: [MailTemplate.Field: String]
    /// The poster, a JPEG, shown above the words in the HTML part and linking to the video.
    package var poster: [UInt8]?
    package var date: Date

    package init(from: MailAddress, fromName: String = "", to: MailAddress, postID: String, subject: MailTemplate = .standardSubject,
                 body: MailTemplate = .standardBody, values: [MailTemplate.Field: String], poster: [UInt8]?, date: Date) {
        self.from = from
        self.fromName = fromName
        self.to = to
        self.postID = postID
        self.subject = subject
        self.body = body
        self.values = values
        self.poster = poster
        self.date = date
    }

    /// `<POSTID.HASH@DOMAIN>`: the post, 16 hex digits of SHA-256 over the post and the recipient
    /// (lowercased: the same guest typing differently gets the same id), and the sender's domain.
    /// The recipient's address is not in it.
    package var messageID: String {
        "<\(Self.idPart(postID)).\(recipientHash)@\(from.domain)>"
    }

    /// The Content-ID of the inline poster (without angle brackets), for `cid:` in the HTML.
    package var posterContentID: String { "poster.\(Self.idPart(postID)).\(recipientHash)@\(from.domain)" }

    private var recipientHash: String {
        String(FileDigest.sha256(Array("\(postID)\n\(to.text.lowercased())".utf8)).prefix(16))
    }

    /// What `postID` gives to an id: letters, digits, `-` and `_` (post ids are those already).
    private static func idPart(_ id: String) -> String {
        let kept = String(id.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }.map(Character.init))
        return kept.isEmpty ? "post" : String(kept.prefix(64))
    }

    /// The longest subject line, in characters: a caption in `mail.subject` can be thousands.
    package static let subjectLimit = 150

    /// The subject line as filled (the plain one when the template's fields are all empty), cut
    /// to `subjectLimit` characters with an ellipsis.
    package var subjectLine: String {
        var line = subject.line(values)
        if line.isEmpty { line = MailTemplate.plainSubject.line(values) }
        return line.count > Self.subjectLimit ? line.prefix(Self.subjectLimit - 1) + "…" : line
    }

    /// The whole message, ready to be the SMTP body.
    package func bytes() -> [UInt8] {
        let seed = String(FileDigest.sha256(Array(messageID.utf8)).prefix(20))
        // "=_" never occurs in quoted-printable or base64, so no part can contain a boundary.
        let alternative = "=_\(seed)_alt", related = "=_\(seed)_rel"
        var out = ""
        func header(_ name: String, _ value: String) { out += "\(name): \(value)\r\n" }
        if fromName.isEmpty {
            header("From", from.text)
        } else {
            out += MIMEText.headerText(fromName, field: "From", phrase: true) + "\r\n <\(from.text)>\r\n"
        }
        header("To", to.text)
        out += MIMEText.headerText(subjectLine, field: "Subject") + "\r\n"
        header("Date", MIMEText.date(date))
        header("Message-ID", messageID)
        header("MIME-Version", "1.0")
        header("Content-Type", "multipart/alternative; boundary=\"\(alternative)\"")
        out += "\r\n"

        out += "--\(alternative)\r\n"
        out += Self.textPart("plain", body.text(values))
        out += "--\(alternative)\r\n"
        if let poster {
            out += "Content-Type: multipart/related; boundary=\"\(related)\";\r\n type=\"text/html\"\r\n\r\n"
            out += "--\(related)\r\n"
            out += Self.textPart("html", html(posterID: posterContentID))
            out += "--\(related)\r\n"
            out += "Content-Type: image/jpeg\r\n"
            out += "Content-Transfer-Encoding: base64\r\n"
            out += "Content-ID: <\(posterContentID)>\r\n"
            out += "Content-Disposition: inline; filename=\"poster.jpg\"\r\n\r\n"
            out += MIMEText.base64Lines(poster)
            out += "--\(related)--\r\n"
        } else {
            out += Self.textPart("html", html(posterID: nil))
        }
        out += "--\(alternative)--\r\n"
        return Array(out.utf8)
    }

    private static func textPart(_ subtype: String, _ text: String) -> String {
        "Content-Type: text/\(subtype); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + MIMEText.quotedPrintable(text) + "\r\n"
    }

    /// The HTML document: the poster (a link to the video) above the template's words.
    private func html(posterID: String?) -> String {
        let title = HTMLText.escaped(subjectLine)
        var lines = ["<!DOCTYPE html>", "<html>", "<head>", "<meta charset=\"utf-8\">",
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">", "<title>\(title)</title>", "</head>",
                     "<body style=\"font-family: sans-serif; font-size: 16px; line-height: 1.5; max-width: 40em; overflow-wrap: anywhere\">"]
        if let posterID {
            let link = HTMLText.escaped(values[.link] ?? "")
            lines.append("<p><a href=\"\(link)\"><img src=\"cid:\(posterID)\" alt=\"\(title)\" style=\"max-width: 100%; height: auto\"></a></p>")
        }
        lines.append(body.html(values))
        lines += ["</body>", "</html>"]
        return lines.joined(separator: "\n")
    }
}
