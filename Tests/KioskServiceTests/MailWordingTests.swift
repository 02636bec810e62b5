import Foundation
import KioskService
import Publishing
import StorageUpload
import MailValues
import Testing
import KioskWords

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
