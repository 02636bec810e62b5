import Foundation
@testable import Settings
@testable import Shooting
@testable import Publishing
@testable import Library
import StorageUpload
import MailValues
import Testing

@Suite struct MailTemplateTests {
    @Test func fieldsAreKnownNamesAndOtherBracesAreText() throws {
        #expect(throws: MailTemplate.Problem.unknownField("lnk")) { try MailTemplate("Watch it: {lnk}") }
        #expect(throws: MailTemplate.Problem.missingField(.link)) { try MailTemplate("Thanks for coming to {event}!", requiring: [.link]) }
        #expect(throws: MailTemplate.Problem.controlCharacter(0x1b)) { try MailTemplate("{link}\u{1b}[2J") }
        let template = try MailTemplate("{link} :-{ {} {Link} {{event}}", requiring: [.link])
        #expect(template.fields == [.link, .event])
        #expect(template.text([.link: "L", .event: "E"]) == "L :-{ {} {Link} {E}")
    }

    @Test func aLineWhoseFieldIsEmptyIsLeftOutAndBlankLinesNeverDouble() {
        let values: [MailTemplate.Field: String] = [.link: "https://b.example/s/1", .caption: "", .event: "", .expires: ""]
        #expect(MailTemplate.standardBody.text(values) == "Hello,\n\nhttps://b.example/s/1")
        var full = values
        full[.caption] = "Us\r\nat the booth"
        full[.expires] = "1 May"
        #expect(MailTemplate.standardBody.text(full) == "Hello,\n\nhttps://b.example/s/1\n\nUs\nat the booth\n\nThe link works until 1 May.")
        #expect(MailTemplate.standardSubject.line([.event: "Line\nbreak"]) == "Your video from Line break")
        #expect(MailTemplate.standardSubject.line([:]) == "")
    }

    @Test func theHTMLEscapesEveryValueAndLinksTheLink() throws {
        let template = try MailTemplate("<{event}>\n{link}\n\n{caption}", requiring: [.link])
        let html = template.html([.link: "https://b.example/s/1?a=1&b=\"2\"", .event: "Tom & Jerry's", .caption: "<script>alert(1)</script>\nline 2"])
        #expect(html == """
            <p>&lt;Tom &amp; Jerry&#39;s&gt;<br>
            <a href="https://b.example/s/1?a=1&amp;b=&quot;2&quot;">https://b.example/s/1?a=1&amp;b=&quot;2&quot;</a></p>
            <p>&lt;script&gt;alert(1)&lt;/script&gt;<br>
            line 2</p>
            """)
    }
}

@Suite struct MIMETextTests {
    @Test func quotedPrintableKeepsLinesShortAndEncodesWhatItMust() {
        let text = "café = 100%\nend with space \n.starts with a dot\n" + String(repeating: "é", count: 60)
        let encoded = MIMEText.quotedPrintable(text)
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 && $0.utf8.allSatisfy { $0 >= 32 && $0 < 127 } })
        #expect(lines[0] == "caf=C3=A9 =3D 100%" && lines[1] == "end with space=20" && lines[2] == "=2Estarts with a dot")
        // 60 é are 120 bytes, 360 characters encoded: soft breaks never split an =XX.
        #expect(lines[3...].dropLast().allSatisfy { $0.hasSuffix("=") } && lines[3...].joined().count == 360 + lines[3...].count - 1)
        // Whatever the plain characters before them, no line passes 76 with its soft-break "=".
        for prefix in ["a", "ab", "abc"] {
            let lines = MIMEText.quotedPrintable(prefix + String(repeating: "é", count: 60)).components(separatedBy: "\r\n")
            #expect(lines.map(\.utf8.count).max() == 76, "\(prefix): \(lines.map(\.utf8.count))")
        }
    }

    @Test func aHeaderTextCannotAddAFieldAndFoldsWithinItsLimit() {
        let subject = MIMEText.headerText("Hi\r\nBcc: victim@example.com", field: "Subject")
        #expect(subject == "Subject: Hi Bcc: victim@example.com")
        let long = MIMEText.headerText(String(repeating: "Wörter ", count: 40), field: "Subject")
        let lines = long.components(separatedBy: "\r\n")
        #expect(lines.count > 1 && lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" =?UTF-8?B?") })
        // A display name with a comma or quotes is encoded, never left as a broken phrase.
        #expect(MIMEText.headerText("Booth, Inc.", field: "From", phrase: true).hasPrefix("From: =?UTF-8?B?"))
        #expect(MIMEText.headerText("Photo booth", field: "From", phrase: true) == "From: Photo booth")
        #expect(MIMEText.date(Date(timeIntervalSince1970: 1_795_600_000)) == "Wed, 25 Nov 2026 09:46:40 +0000")
    }
}

@Suite struct MailMessageTests {
    static let booth = try! MailAddress("booth@photo.example")

    static func message(to: String = "guest@example.org", caption: String = "hello", poster: [UInt8]? = [0xff, 0xd8, 0xff, 0xd9]) -> MailMessage {
        MailMessage(from: booth, to: try! MailAddress(to), postID: "5kQB7CD2ZA",
                    values: [.link: "https://b.example/s/5kQB7CD2ZA", .caption: caption, .event: "Gala"], poster: poster,
                    date: Date(timeIntervalSince1970: 1_795_600_000))
    }

    @Test func theMessageIDComesFromThePostAndTheRecipientAndNamesNeither() {
        let id = Self.message().messageID
        #expect(id == Self.message(caption: "another caption").messageID, "a resend must carry the same id")
        #expect(id == Self.message(to: "Guest@Example.ORG").messageID)
        #expect(id != Self.message(to: "other@example.org").messageID)
        #expect(id.hasPrefix("<5kQB7CD2ZA.") && id.hasSuffix("@photo.example>") && !id.contains("guest"))
        #expect(Self.message().bytes() == Self.message().bytes())
    }

    @Test func everyLineIsShortCRLFAndASCIIWhateverTheCaption() throws {
        let caption = String(repeating: "👨‍👩‍👧 שלום\r\n.\r\n", count: 300)
        var message = Self.message(caption: caption)
        message.subject = try MailTemplate("{caption}")
        let bytes = message.bytes()
        #expect(bytes.allSatisfy { $0 < 128 })
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n") && !text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 }, "longest: \(lines.map(\.utf8.count).max() ?? 0)")
        // No line of the message is a lone dot, and the header ends at the first blank line with only its own fields.
        #expect(!lines.contains("."))
        let header = lines.prefix { !$0.isEmpty }
        #expect(header.filter { !$0.hasPrefix(" ") }.map { $0.prefix { $0 != ":" } }
            == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"])
    }
}
