import Foundation
@testable import StorageUpload
import SystemSupport
import MailValues
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct MailAddressTests {
    @Test func plainAddressesPassAsTheyAre() throws {
        for text in ["a@b.co", "First.Last+booth@mail.example.org", "x_y-z!#$%&'*+/=?^`{|}~@host-1.example"] {
            let address = try MailAddress(text)
            #expect(address.text == text && "\(address.localPart)@\(address.domain)" == text)
        }
    }

    @Test func eachWrongAddressIsItsCase() {
        let cases: [(String, MailAddress.Problem)] = [
            ("", .empty),
            ("guest.example.com", .atSigns(count: 0)),
            ("a@b@example.com", .atSigns(count: 2)),
            ("@example.com", .emptyLocalPart),
            ("guest@", .emptyDomain),
            ("guest@example.com\r\nBcc: x@y.z", .controlCharacter(13)),
            ("guest@exa\u{7f}mple.com", .controlCharacter(0x7f)),
            ("gu est@example.com", .space),
            ("gäst@example.com", .nonASCII(0xe4)),
            ("<guest>@example.com", .characterNotAllowed("<")),
            ("\"guest\"@example.com", .characterNotAllowed("\"")),
            ("guest,x@example.com", .characterNotAllowed(",")),
            (".guest@example.com", .misplacedDot),
            ("gu..est@example.com", .misplacedDot),
            ("guest@localhost", .badDomain),
            ("guest@-example.com", .badDomain),
            ("guest@example..com", .badDomain),
            ("guest@exa_mple.com", .badDomain),
            ("guest@[127.0.0.1]", .badDomain),
        ]
        for (text, problem) in cases {
            #expect(throws: problem, "\(text.debugDescription)") { try MailAddress(text) }
        }
    }

    @Test func lengthsAreRFC5321s() throws {
        let local64 = String(repeating: "a", count: 64)
        _ = try MailAddress("\(local64)@example.com")
        #expect(throws: MailAddress.Problem.localPartTooLong(octets: 65)) { try MailAddress("\(local64)a@example.com") }
        // 254 in all passes; 255 does not (RFC 5321's 256-octet path holds two angle brackets).
        let domain = [String](repeating: String(repeating: "d", count: 62), count: 3).joined(separator: ".") + ".ab"  // 191
        _ = try MailAddress("\(local64[...].prefix(62))@\(domain)")
        #expect(try MailAddress("\(local64[...].prefix(62))@\(domain)").text.utf8.count == 254)
        #expect(throws: MailAddress.Problem.tooLong(octets: 255)) { try MailAddress("\(local64[...].prefix(63))@\(domain)") }
        let longDomain = [String](repeating: String(repeating: "d", count: 63), count: 4).joined(separator: ".") + ".com"  // 259
        #expect(throws: MailAddress.Problem.domainTooLong(octets: 259)) { try MailAddress("a@\(longDomain)") }
        #expect(throws: MailAddress.Problem.badDomain) { try MailAddress("a@\(String(repeating: "d", count: 64)).com") }
    }

    @Test func aMaskedAddressKeepsTwoLettersAndTheTopLevelDomain() throws {
        #expect(try MailAddress("guest.name@example.org").masked == "g***@e***.org")
    }
}

@Suite struct SMTPSettingsTests {
    @Test func urlsNameAServerOrTheirProblem() throws {
        #expect(try SMTPSettings(url: "smtps://mail.example.com").server() == .init(implicitTLS: true, host: "mail.example.com", port: 465))
        #expect(try SMTPSettings(url: "smtp://mail.example.com:587/").server() == .init(implicitTLS: false, host: "mail.example.com", port: 587))
        #expect(try SMTPSettings(url: "SMTP://[::1]").server().url == "smtp://[::1]:25")
        let bad: [(String, SMTPSettingsProblem.URLProblem)] = [
            ("https://mail.example.com", .scheme), ("mail.example.com", .notAURL), ("smtp://user:pw@mail.example.com", .credentials),
            ("smtp://mail.example.com/booth.example", .path), ("smtp://mail.example.com?x=1", .path), ("smtp:///", .noHost),
            ("smtp://mail.example.com:0", .port), ("smtp://mail.example.com\r\nRCPT TO:<x@y.z>", .characters), ("smtp://mäil.example", .characters),
        ]
        for (url, problem) in bad {
            // (the password is never in the problem, which people see)
            let shown = url.replacing("user:pw@", with: "user:********@")
            #expect(throws: SMTPSettingsProblem.url(shown, problem), "\(url.debugDescription)") { try SMTPSettings(url: url).server() }
        }
        #expect(throws: SMTPSettingsProblem.url("smtps://booth:********@mail.example.com:587", .credentials)) {
            try SMTPSettings(url: "smtps://booth:hunter2@mail.example.com:587").server()
        }
        #expect("smtp://a:b@c@mail.example".withoutURLPassword == "smtp://a:********@mail.example")
        #expect("smtp://user@mail.example:25".withoutURLPassword == "smtp://user@mail.example:25")
    }

    @Test func theCredentialsFileIsTheOwnersAndHasBothLines() throws {
        let dir = NSTemporaryDirectory() + "smtp-credentials-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = "\(dir)/mail"
        func write(_ text: String, mode: mode_t = 0o600) throws {
            try text.write(toFile: file, atomically: false, encoding: .utf8)
            chmod(file, mode)
        }
        #expect(throws: SMTPSettingsProblem.credentialsUnreadable(path: file, errno: ENOENT)) { try SMTPCredentials.read(file: file) }
        try write("user = booth\npassword = pw\n", mode: 0o644)
        #expect(throws: SMTPSettingsProblem.credentialsOpenToOthers(path: file, mode: 0o644)) { try SMTPCredentials.read(file: file) }
        // Its group may read it when root owns it (the package's: root:recorder 0640), not otherwise.
        try write("user = booth\npassword = pw\n", mode: 0o640)
        if geteuid() == 0 {
            #expect(try SMTPCredentials.read(file: file).user == "booth")
            chown(file, 65534, 65534)
        }
        #expect(throws: SMTPSettingsProblem.credentialsOpenToOthers(path: file, mode: 0o640)) { try SMTPCredentials.read(file: file) }
        chown(file, geteuid(), getegid())
        try write("# no password yet\nuser = booth\n")
        #expect(throws: SMTPSettingsProblem.credentialsIncomplete(path: file, missing: "password")) { try SMTPCredentials.read(file: file) }
        try write("user = booth\r\npassword =  a = b: c d \n", mode: 0o400)
        let credentials = try SMTPCredentials.read(file: file)
        #expect(credentials.user == "booth" && credentials.password == "a = b: c d")
        #expect(!"\(credentials)".contains("a = b"))
        // The sender reads it when made, so a kiosk finds a bad file at start.
        try write("user = booth\n")
        #expect(throws: SMTPSettingsProblem.credentialsIncomplete(path: file, missing: "password")) {
            try SMTPSender(SMTPSettings(url: "smtps://mail.example.com", credentialsFile: file))
        }
    }
}

/// The conversation as libcurl's debug callback hands it over, line by line.
@Suite struct SMTPTraceTests {
    private func feed(_ trace: SMTPTrace, _ lines: [String]) {
        for line in lines {
            var bytes = Array(line.dropFirst(2).utf8) + [13, 10]
            bytes.withUnsafeMutableBytes { raw in
                if line.hasPrefix("> ") { trace.sent(UnsafeRawBufferPointer(raw)) } else { trace.received(UnsafeRawBufferPointer(raw)) }
            }
        }
    }

    @Test func eachReplyKeepsTheStepItAnswered() {
        let trace = SMTPTrace()
        feed(trace, ["< 220 mail.test ESMTP", "> EHLO booth", "< 250-mail.test", "< 250-STARTTLS", "< 250 HELP"])
        #expect(trace.lastReply == SMTPReply(code: 250, text: "mail.test\nSTARTTLS\nHELP", step: .hello))
        feed(trace, ["> MAIL FROM:<booth@photo.example>", "< 250 OK", "> RCPT TO:<guest@example.org>", "< 451 4.7.1 Greylisted"])
        #expect(trace.lastReply == SMTPReply(code: 451, text: "4.7.1 Greylisted", step: .recipient))
        // libcurl's goodbye after a failure does not replace the reply that ended it.
        feed(trace, ["> QUIT", "< 221 Bye"])
        #expect(trace.lastReply?.code == 451 && trace.acceptance == nil)
    }

    /// A refusal that repeats the guest's address keeps its words, the address masked: the reply
    /// is kept in the outbox and shown to operators, who never see an address.
    @Test func anAddressInAReplyIsMasked() {
        let trace = SMTPTrace()
        feed(trace, ["> RCPT TO:<Guest.Name+video@example.org>", "< 550-5.1.1 <Guest.Name+video@example.org>: Recipient", "< 550 address rejected (also x@y.example.co.uk)"])
        #expect(trace.lastReply == SMTPReply(code: 550, text: "5.1.1 <G***@e***.org>: Recipient\naddress rejected (also x***@y***.uk)", step: .recipient))
        #expect(SMTPReply.maskingAddresses("250 2.0.0 Ok: queued as 4F2A1") == "250 2.0.0 Ok: queued as 4F2A1")
    }

    /// Issue 50: a local part with characters the pattern missed (`' / ! { }`) was masked from
    /// where they stopped it (`x{rej}y***@e***.com`). The message's own recipient is masked in every
    /// spelling a server echoes it in; any other address-shaped text whole.
    @Test func theRecipientIsMaskedInEverySpellingAServerEchoes() throws {
        for (address, echoed) in [("x{rej}y@example.com", "<x{rej}y@example.com>"), ("o'r@example.com", "<O'R@EXAMPLE.COM>"),
                                  ("first/r@example.com", "\"first/r\"@example.com"), ("evil.example!r@example.com", "evil.example!r@Example.com")] {
            let recipient = try MailAddress(address)
            let trace = SMTPTrace(recipient: recipient)
            feed(trace, ["> RCPT TO:<\(address)>", "< 550-5.1.1 \(echoed): Recipient", "< 550 address rejected"])
            let text = try #require(trace.lastReply?.text)
            #expect(text == "5.1.1 \(echoed.hasPrefix("<") ? "<\(recipient.masked)>" : recipient.masked): Recipient\naddress rejected", "\(address): \(text)")
        }
        // Another address the server names, whatever its local part's characters: masked whole.
        #expect(SMTPReply.maskingAddresses("550 <a{b}c@example.com> and d'e@example.org") == "550 <a***@e***.com> and d***@e***.org")
        // A record kept before: its failure is masked again for its address when it is read.
        let old = SMTPFailure.permanentRefusal(SMTPReply(code: 550, text: "5.1.1 \"o'r\"@example.com unknown", step: .recipient))
        #expect(old.masking([try MailAddress("o'r@example.com")]) == .permanentRefusal(SMTPReply(code: 550, text: "5.1.1 o***@e***.com unknown", step: .recipient)))
    }

    @Test func authenticationLinesAreNotCommandsAndTheMessagesReplyIsItsAcceptance() {
        let trace = SMTPTrace()
        // "DATA" is also four letters of base64: a user name's line must not look like the DATA command.
        feed(trace, ["< 220 hi", "> AUTH LOGIN", "< 334 VXNlcm5hbWU6", "> DATA", "< 334 UGFzc3dvcmQ6", "> cGFzcw==", "< 235 2.7.0 OK"])
        #expect(trace.lastReply?.step == .authentication && trace.step == .authentication)
        feed(trace, ["> MAIL FROM:<a@b.co>", "< 250 OK", "> RCPT TO:<c@d.co>", "< 250 OK", "> DATA", "< 354 go ahead"])
        #expect(trace.step == .message && trace.stepReached(messageFinished: false) == .message)
        #expect(trace.stepReached(messageFinished: true) == .endOfMessage && trace.acceptance == nil)
        feed(trace, ["< 250 2.0.0 OK queued as 7\u{1b}[31m"])
        #expect(trace.acceptance == SMTPReply(code: 250, text: "2.0.0 OK queued as 7[31m", step: .endOfMessage))
    }

    @Test func whatMayBeRetriedAndWhatTheServerMayHave() {
        #expect(SMTPFailure.connectionLost(during: .endOfMessage, curlCode: 56).serverMayHaveIt)
        #expect(!SMTPFailure.connectionLost(during: .message, curlCode: 55).serverMayHaveIt)
        #expect(SMTPFailure.temporaryRefusal(SMTPReply(code: 421, text: "", step: .greeting)).mayRetry)
        #expect(!SMTPFailure.permanentRefusal(SMTPReply(code: 550, text: "", step: .recipient)).mayRetry)
        #expect(!SMTPFailure.startTLSNotOffered.mayRetry && SMTPFailure.cannotConnect(host: "h", port: 25, errno: ECONNREFUSED).mayRetry)
    }
}
