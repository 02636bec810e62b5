import Foundation
import Settings
import Shooting
import Publishing
import Library
import StorageUpload
import MailValues
import Testing

/// Guests' mails with the caption fixtures (right-to-left, ZWJ emoji, combining marks, CR LF and a
/// lone CR, 2,200 emoji) as caption and as the subject's event, read with Python's MIME parser.
@Suite struct MailMessageParsingTests {
    @Test(arguments: ["rtl", "zwj-emoji", "combining", "multiline", "length-2200"])
    func captionsComeBackAsWrittenInEveryPart(_ name: String) throws {
        let caption = try String(contentsOfFile: "\(S3Fixture.repository)/Fixtures/captions/\(name).txt", encoding: .utf8)
        let message = MailMessage(from: try MailAddress("booth@photo.example"), fromName: "בודקה", to: try MailAddress("guest@example.org"),
                                  postID: "5kQB7CD2ZA",
                                  values: [.link: "https://b.example/s/5kQB7CD2ZA", .caption: caption, .event: caption, .expires: "1 May"],
                                  poster: MailTransportTests.poster, date: Date(timeIntervalSince1970: 1_795_600_000))
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(message.bytes()).write(to: URL(fileURLWithPath: "\(dir)/m.eml"))
        let mail = try SMTPFixture.parse("\(dir)/m.eml")
        #expect((mail["defects"] as? [String])?.isEmpty == true, "the parser's complaints: \(mail["defects"] ?? "")")
        #expect((mail["max_line"] as? Int ?? 999) <= 78 && mail["non_ascii"] as? Int == 0 && mail["bare_line_ends"] as? Int == 0)
        let lines = caption.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        let text = try #require(mail["text"] as? String)
        #expect(text.contains("\n\(lines.joined(separator: "\n"))\n"), "the caption is not in the text part as written")
        let html = try #require(mail["html"] as? String)
        #expect(html.contains(lines.joined(separator: "<br>\n")))
        let headers = mail["headers"] as? [String: [String]] ?? [:]
        var subject = "Your video from " + lines.joined(separator: " ")
        if subject.count > MailMessage.subjectLimit { subject = subject.prefix(MailMessage.subjectLimit - 1) + "…" }
        #expect(headers["Subject"] == [subject])
        #expect(headers["From"] == ["בודקה <booth@photo.example>"])
    }
}
