import Foundation
import KioskService
import Publishing
import Settings
import StorageUpload
import MailValues
import Testing
import KioskWords
import SystemSupport

/// The operator's words for guests' mail (the journal, the operator page, `recorder outbox mail`),
/// as snapshots: the edge's wording is checked here once; everywhere else tests judge the cases.
@Suite struct MailWordingTests {
    @Test func failuresSayWhatTheServerSaidAndWhatHappensNext() {
        let refused = SMTPReply(code: 550, text: "5.1.1 No such user here", step: .recipient)
        #expect(MailWording.failure(.smtp(.permanentRefusal(refused))) == 
                "the mail server refused it: 550 5.1.1 No such user here (to RCPT TO (the guest's address)). It is kept, not sent again by itself: fix what the server says (an address it does not know, the account's rights), then recorder outbox mail --retry ID.")
        #expect(MailWording.failure(.smtp(.temporaryRefusal(SMTPReply(code: 451, text: "4.7.1 Greylisted", step: .recipient)))) == 
                "the mail server answered 451 4.7.1 Greylisted to RCPT TO (the guest's address): not now. It is tried again.")
        #expect(MailWording.failure(.smtp(.connectionLost(during: .endOfMessage, curlCode: 56))) == 
                "the connection to the mail server broke during the end of the message (libcurl 56). The server may have it all the same; it goes again with the same Message-ID. It is tried again.")
        #expect(MailWording.failure(.noLink) == 
                "its post went to a store that gives no share link (a local store, with no share.base_url and no kiosk serving its page): there is no link to send. Set share.base_url, then send it again: recorder outbox mail --retry ID.")
    }

    @Test func addressesAreRefusedWithoutRepeatingThem() {
        #expect(MailWording.address(.atSigns(count: 2)) == 
                "it has 2 @ signs; an address has one")
        #expect(MailWording.address(.controlCharacter(0x0d)) == 
                "it has the control character U+000D")
        #expect(MailWording.request(.address(.emptyDomain)) == 
                "the address is not one mail can be sent to: nothing comes after the @.")
    }
}

/// The link's end in a guest's mail ({expires}) in the one form per language the pages show it
/// too (issue 49: the mail said "5 December 2026", the page "December 5, 2026 at 11:57 PM" for the
/// same end): Tests/pages/date-forms.json, which the pages' test (dates.test.mjs) reads as well.
@Suite struct MailDateFormTests {
    struct Table: Decodable {
        struct Form: Decodable {
            var at: String
            var offsetSeconds: Int
            var en: String
            var de: String
        }
        var forms: [Form]
    }

    @Test func theMailWritesADateAsThePagesDo() throws {
        let path = #filePath.replacing("Tests/KioskServiceTests/MailWordingTests.swift", with: "Tests/pages/date-forms.json")
        let table = try JSONDecoder().decode(Table.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(table.forms.count >= 3)
        for form in table.forms {
            let date = try #require(RFC3339.date(form.at))
            #expect(MailWording.expires(date, language: "en", utcOffsetSeconds: form.offsetSeconds) == form.en)
            #expect(MailWording.expires(date, language: "de", utcOffsetSeconds: form.offsetSeconds) == form.de)
        }
    }
}
