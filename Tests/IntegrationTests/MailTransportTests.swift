import Foundation
import Settings
import Shooting
import Publishing
import Library
import StorageUpload
import MailValues
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A guest's mail made by `MailMessage` and sent by `SMTPSender` (libcurl) to a real SMTP server
/// on loopback (aiosmtpd, STARTTLS with a certificate made at start, AUTH), read back with Python's
/// MIME parser; and each fault the server can be told to make, with the case it must give. Each
/// test has its own server; they run one after another (each blocks a thread while it sends).
@Suite(.serialized) struct MailTransportTests {
    static let guest = try! MailAddress("guest.name+booth@example.org")
    static let booth = try! MailAddress("booth@photo.example")
    static let link = "https://booth.example/s/5kQB7CD2ZA#k=Zq3"
    static var poster: [UInt8] { Array(FileManager.default.contents(atPath: "\(S3Fixture.repository)/Fixtures/mjpeg/frame-01.jpg") ?? Data()) }

    /// A guest's mail whose caption and event (the subject's field) try to add a header, and the
    /// caption markup, with the poster. (Non-ASCII subjects: MailMessageParsingTests.)
    static func message(to recipient: MailAddress = guest, poster: [UInt8]? = poster) -> MailMessage {
        MailMessage(from: booth, fromName: "Fête booth", to: recipient, postID: "5kQB7CD2ZA",
                    values: [.link: link, .caption: "Line one\r\nBcc: victim@example.com\n<b>bold</b> & \"quotes\"",
                             .event: "Gala 2026\r\nCc: victim@example.com", .expires: "24 December 2026"],
                    poster: poster, date: Date(timeIntervalSince1970: 1_795_600_000))
    }

    @Test func aSentMailReadsBackWithItsPartsPosterLinkAndHeaders() throws {
        let smtp = try SMTPFixture()
        let message = Self.message()
        let reply = try SMTPSender(try smtp.settings()).send(.bytes(message.bytes()), from: Self.booth, to: Self.guest)
        #expect(reply.code == 250 && reply.step == .endOfMessage && reply.text.hasPrefix("2.0.0 OK queued as"))

        let received = try smtp.received()
        try #require(received.count == 1)
        // The mail as the server got it, for a person to read: `--attachments-path DIR` keeps it.
        Attachment.record(try Data(contentsOf: URL(fileURLWithPath: received[0].path)), named: "received.eml")
        let envelope = received[0].envelope
        #expect(envelope["mail_from"] as? String == Self.booth.text)
        #expect(envelope["rcpt_tos"] as? [String] == [Self.guest.text])
        #expect(envelope["tls"] as? Bool == true, "STARTTLS must have been used")
        #expect(envelope["auth"] as? String == SMTPFixture.user)
        #expect(envelope["confirmed"] as? Bool == true)
        // The exact bytes made are the bytes the server took (the SMTP dot-stuffing undone).
        #expect(Array(FileManager.default.contents(atPath: received[0].path) ?? Data()) == message.bytes())

        let mail = try SMTPFixture.parse(received[0].path)
        #expect(mail["structure"] as? String == "multipart/alternative(text/plain,multipart/related(text/html,image/jpeg))")
        #expect((mail["defects"] as? [String])?.isEmpty == true, "the parser's complaints: \(mail["defects"] ?? "")")
        let headers = mail["headers"] as? [String: [String]] ?? [:]
        #expect(headers["Subject"] == ["Your video from Gala 2026 Cc: victim@example.com"])
        #expect(headers["From"] == ["Fête booth <booth@photo.example>"])
        #expect(headers["To"] == [Self.guest.text])
        #expect(headers["Message-ID"] == [message.messageID])
        #expect(headers["Bcc"] == nil && headers["Cc"] == nil, "a caption or the event added a header")
        #expect(mail["date"] as? Double == 1_795_600_000)
        #expect(mail["non_ascii"] as? Int == 0 && mail["bare_line_ends"] as? Int == 0)
        #expect((mail["max_line"] as? Int ?? 999) <= 78)

        let text = try #require(mail["text"] as? String)
        #expect(text.contains("\n\(Self.link)\n"))
        #expect(text.contains("Line one\nBcc: victim@example.com\n<b>bold</b> & \"quotes\""))
        #expect(text.contains("here is your video from Gala 2026\nCc: victim@example.com:") && text.contains("The link works until 24 December 2026."))
        let html = try #require(mail["html"] as? String)
        #expect(html.contains("<a href=\"\(Self.link)\">\(Self.link)</a>"))
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;") && !html.contains("<b>bold"))
        #expect(html.contains("<img src=\"cid:\(message.posterContentID)\""))

        let images = mail["images"] as? [[String: Any]] ?? []
        try #require(images.count == 1)
        #expect(images[0]["content_id"] as? String == "<\(message.posterContentID)>")
        #expect(images[0]["disposition"] as? String == "inline")
        #expect(images[0]["sha256"] as? String == FileDigest.sha256(Self.poster), "the inline poster is not the JPEG's bytes")
        // Never the video: the message is the words and the poster.
        #expect(message.bytes().count < Self.poster.count * 2)
    }

    @Test func smtpsAndAFileBodyAndNoPosterWork() throws {
        let smtp = try SMTPFixture(tls: "implicit")
        let message = Self.message(poster: nil)
        let file = "\(smtp.dir)/message.eml"
        try Data(message.bytes()).write(to: URL(fileURLWithPath: file))
        let sender = try SMTPSender(try smtp.settings(implicitTLS: true))
        #expect(throws: SMTPFailure.unreadableMessage(errno: ENOENT)) { try sender.send(.file(path: file + ".gone"), from: Self.booth, to: Self.guest) }
        let reply = try sender.send(.file(path: file), from: Self.booth, to: Self.guest)
        #expect(reply.code == 250)
        let received = try smtp.received()
        try #require(received.count == 1)
        #expect(received[0].envelope["tls"] as? Bool == true)
        let mail = try SMTPFixture.parse(received[0].path)
        #expect(mail["structure"] as? String == "multipart/alternative(text/plain,text/html)")
        #expect((mail["images"] as? [Any])?.isEmpty == true)
    }

    @Test func startTLSRequiredRefusesAServerWithoutItAndSendsNothing() throws {
        let smtp = try SMTPFixture(tls: "none", auth: false)
        let settings = try smtp.settings(credentials: nil)
        #expect(throws: SMTPFailure.startTLSNotOffered) {
            try SMTPSender(settings).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        }
        #expect(try smtp.received().isEmpty)
        #expect(smtp.count("mail") == 0, "a transaction began in the clear")
        // mail.insecure = yes: the same server takes it, in the clear.
        var insecure = settings
        insecure.insecure = true
        _ = try SMTPSender(insecure).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        #expect(try smtp.received().first?.envelope["tls"] as? Bool == false)
    }

    @Test func aCertificateNobodyVouchesForIsATLSFailure() throws {
        let smtp = try SMTPFixture()
        var settings = try smtp.settings()
        settings.caFile = nil  // the system's CAs, which do not know the test's certificate
        let failure = #expect(throws: SMTPFailure.self) {
            try SMTPSender(settings).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        }
        guard case .tlsFailed(let code, _) = failure else { Issue.record("not a TLS failure: \(String(describing: failure))"); return }
        #expect(code == 60)  // CURLE_PEER_FAILED_VERIFICATION
        #expect(failure?.mayRetry == false)
        #expect(smtp.count("mail") == 0)
    }

    @Test func aServerThatIsDownRefusesTheConnectionThenTakesTheMail() throws {
        let smtp = try SMTPFixture()
        try smtp.down(true)
        let sender = try SMTPSender(try smtp.settings())
        let bytes = Self.message().bytes()
        #expect(throws: SMTPFailure.cannotConnect(host: "127.0.0.1", port: smtp.port, errno: ECONNREFUSED)) {
            try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest)
        }
        try smtp.down(false)
        #expect(try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest).code == 250)
        #expect(try smtp.received().count == 1)
    }

    @Test func aCutInTheMiddleOfTheMessageIsBeforeItsEndAndMayBeSentAgain() throws {
        let smtp = try SMTPFixture()
        // A message far larger than the sockets' buffers, so the reset comes while it goes out.
        var big = Self.message()
        big.poster = Array(repeating: 0xff, count: 16 << 20)
        try smtp.fault(["mode": "cut-data", "after": 65536, "count": 1])
        let sender = try SMTPSender(try smtp.settings())
        let failure = #expect(throws: SMTPFailure.self) { try sender.send(.bytes(big.bytes()), from: Self.booth, to: Self.guest) }
        guard case .connectionLost(.message, _) = failure else { Issue.record("not a cut during the message: \(String(describing: failure))"); return }
        #expect(failure?.mayRetry == true && failure?.serverMayHaveIt == false)
        #expect(try smtp.received().isEmpty)
        // Again: it goes through, once.
        let message = Self.message()
        #expect(try sender.send(.bytes(message.bytes()), from: Self.booth, to: Self.guest).code == 250)
        #expect(try smtp.received().count == 1)
    }

    @Test func aCutAfterTheWholeMessageBeforeItsReplyMayBeADuplicateWithTheSameMessageID() throws {
        let smtp = try SMTPFixture()
        try smtp.fault(["mode": "cut-after-data", "count": 1])
        let sender = try SMTPSender(try smtp.settings())
        let message = Self.message()
        let failure = #expect(throws: SMTPFailure.self) { try sender.send(.bytes(message.bytes()), from: Self.booth, to: Self.guest) }
        guard case .connectionLost(.endOfMessage, _) = failure else { Issue.record("not a cut before the reply: \(String(describing: failure))"); return }
        #expect(failure?.mayRetry == true && failure?.serverMayHaveIt == true)
        // The server did read it all (RFC 1047's window): a resend makes two, recognisably one message.
        _ = try sender.send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        let received = try smtp.received()
        try #require(received.count == 2)
        #expect(received.map { $0.envelope["confirmed"] as? Bool } == [false, true])
        let ids = try received.map { try SMTPFixture.parse($0.path)["headers"] as? [String: [String]] ?? [:] }.map { $0["Message-ID"] ?? [] }
        #expect(ids == [[message.messageID], [message.messageID]])
    }

    @Test func aCutRightAfterThe250IsSentAndNotSentAgain() throws {
        let smtp = try SMTPFixture()
        try smtp.fault(["mode": "cut-after-250", "count": 1])
        let reply = try SMTPSender(try smtp.settings()).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        #expect(reply.code == 250 && reply.step == .endOfMessage)
        #expect(smtp.count("cut") == 1, "the server did not cut the connection")
        #expect(try smtp.received().count == 1)
    }

    @Test func fourXXTwiceThenTheThirdAttemptGoesThrough() throws {
        let smtp = try SMTPFixture()
        try smtp.fault(["mode": "refuse", "at": "rcpt", "code": 451, "text": "4.7.1 Greylisted, come back later", "count": 2])
        let sender = try SMTPSender(try smtp.settings())
        let bytes = Self.message().bytes()
        for _ in 0..<2 {
            let expected = SMTPReply(code: 451, text: "4.7.1 Greylisted, come back later", step: .recipient)
            #expect(throws: SMTPFailure.temporaryRefusal(expected)) { try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest) }
        }
        #expect(try smtp.received().isEmpty)
        #expect(try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest).code == 250)
        #expect(smtp.count("mail") == 3)
        #expect(try smtp.received().count == 1)
    }

    @Test func fiveXXIsPermanentWhereverItComes() throws {
        let smtp = try SMTPFixture()
        let sender = try SMTPSender(try smtp.settings())
        let bytes = Self.message().bytes()
        try smtp.fault(["mode": "refuse", "at": "rcpt", "code": 550, "text": "5.1.1 No such user here"])
        let unknown = SMTPReply(code: 550, text: "5.1.1 No such user here", step: .recipient)
        #expect(throws: SMTPFailure.permanentRefusal(unknown)) { try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest) }
        #expect(SMTPFailure.permanentRefusal(unknown).mayRetry == false && unknown.enhancedStatus == "5.1.1")
        try smtp.fault(["mode": "refuse", "at": "message", "code": 554, "text": "5.7.1 Message rejected"])
        #expect(throws: SMTPFailure.permanentRefusal(SMTPReply(code: 554, text: "5.7.1 Message rejected", step: .endOfMessage))) {
            try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest)
        }
        try smtp.fault(["mode": "refuse", "at": "mail", "code": 553, "text": "5.7.1 Sender not allowed"])
        #expect(throws: SMTPFailure.permanentRefusal(SMTPReply(code: 553, text: "5.7.1 Sender not allowed", step: .mailFrom))) {
            try sender.send(.bytes(bytes), from: Self.booth, to: Self.guest)
        }
        #expect(try smtp.received().isEmpty)
    }

    @Test func aWrongPasswordIsRefusedAtAuthentication() throws {
        let smtp = try SMTPFixture()
        let failure = #expect(throws: SMTPFailure.self) {
            try SMTPSender(try smtp.settings(credentials: (SMTPFixture.user, "wrong"))).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        }
        guard case .permanentRefusal(let reply) = failure else { Issue.record("not a refusal: \(String(describing: failure))"); return }
        #expect(reply.code == 535 && reply.step == .authentication)
        // The server saw AUTH only once TLS was on.
        #expect(smtp.events().filter { $0["event"] as? String == "auth" }.allSatisfy { $0["tls"] as? Bool == true })
        #expect(smtp.count("mail") == 0)
    }

    @Test func aServerThatStopsAnsweringTimesOutOrIsCancelled() throws {
        let smtp = try SMTPFixture()
        try smtp.fault(["mode": "stall-after-data"])
        let failure = #expect(throws: SMTPFailure.self) {
            try SMTPSender(try smtp.settings(stallSeconds: 5)).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest)
        }
        #expect(failure == .connectionLost(during: .endOfMessage, curlCode: 28))  // CURLE_OPERATION_TIMEDOUT
        // With a stall timeout of a minute, the caller's stop ends it: asked to stop once the
        // server has the message and holds back its reply (its second stall).
        let events = "\(smtp.dir)/events.log"
        let cancelled = #expect(throws: SMTPFailure.self) {
            try SMTPSender(try smtp.settings(stallSeconds: 60)).send(.bytes(Self.message().bytes()), from: Self.booth, to: Self.guest, shouldStop: {
                ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").components(separatedBy: "\"stall\"").count > 2
            })
        }
        #expect(cancelled == .cancelled(during: .endOfMessage))
    }
}
