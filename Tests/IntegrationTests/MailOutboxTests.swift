import Foundation
import Settings
import StorageUpload
import Testing
#if canImport(Glibc)
import Glibc
#endif
import Failures
import SystemSupport

/// `recorder post --email` and `recorder outbox flush|mail` against a real SMTP server on loopback
/// (aiosmtpd with STARTTLS and AUTH, Tests/mail/smtp-server.py) and its faults: the mail is queued
/// with the post in the outbox, sent once its post is in the store, retried across runs, kept and
/// shown when refused for good; what arrived is read back with Python's MIME parser and its link
/// fetched with curl from a web server over the store. Each test has its own server and sandbox.
@Suite(.serialized) struct MailOutboxTests {
    static let guest = "Guest.Name+video@example.org"

    /// A sandbox whose configuration reaches `smtp` (and gives share links to `linkBase`).
    struct Booth {
        var box: PostSandbox
        let smtp: SMTPFixture

        init(linkBase: String = "http://127.0.0.1:9", extra: String = "") throws {
            box = try PostSandbox()
            smtp = try SMTPFixture()
            let settings = try smtp.settings()
            let config = "\(box.root)/config/recorder.conf"
            try """
            retry.initial_seconds = 0
            retry.max_seconds = 0
            share.base_url = \(linkBase)/{key}
            mail.smtp_url = \(settings.url)
            mail.from = Photo booth <booth@photo.example>
            mail.credentials_file = \(settings.credentialsFile!)
            mail.ca_file = \(settings.caFile!)
            mail.event = Anna & Ben's wedding
            \(extra)
            """.write(toFile: config, atomically: true, encoding: .utf8)
            box.extraEnvironment["RECORDER_CONFIG"] = config
        }

        func recorder(_ arguments: [String]) throws -> Tools.Output { try box.recorder(arguments) }

        /// `recorder kiosk` on the test pattern, under timeout(1): a kiosk that got past its checks
        /// would run on; one stopped at its start exits at once.
        func kiosk(_ arguments: [String]) throws -> Tools.Output {
            try Tools.run("timeout", ["60", try Tools.recorderBinary(), "kiosk", "--device", "testsrc", "--listen", "127.0.0.1:1"] + arguments,
                          environment: box.environment)
        }

        /// Shoots and posts with `--email`, with JSON out.
        func post(email: String = MailOutboxTests.guest) throws -> (Tools.Output, [String: Any]) {
            try box.shoot(seconds: 1)
            let post = try recorder(["post", "--caption", "the first dance", "--email", email, "--json"])
            return (post, (try? jsonObject(post.stdout)) ?? [:])
        }

        /// `recorder outbox mail --json`.
        func mailList() throws -> [String: Any] {
            let list = try recorder(["outbox", "mail", "--json"])
            try #require(list.status == 0, "\(list.stderr)")
            return try jsonObject(list.stdout)
        }

        /// Every file under the outbox, as one text (to look for the address in).
        func outboxText(includingQueue: Bool) throws -> String {
            let files = try FileManager.default.subpathsOfDirectory(atPath: box.outbox)
            return try files.filter { includingQueue || !$0.hasPrefix("mail/queue/") }.compactMap { path -> String? in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: "\(box.outbox)/\(path)", isDirectory: &isDirectory)
                return isDirectory.boolValue ? nil : String(decoding: try Data(contentsOf: URL(fileURLWithPath: "\(box.outbox)/\(path)")), as: UTF8.self)
            }.joined(separator: "\n")
        }

        var mailJobs: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "\(box.outbox)/mail/queue")) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        }

        var transactions: Int { smtp.count("mail") }
    }

    /// The server down while posting: the post goes, its mail waits (75), shown masked; once the
    /// server is up a flush sends it; the mail read back has the post's link, which fetches the
    /// video byte for byte; the address is gone from the outbox then, and nothing goes twice.
    @Test func theServerDownWhenPostingQueuesTheMailAndTheNextFlushSendsIt() throws {
        let web = try StoreWebServer()
        let booth = try Booth(linkBase: web.base)
        defer { booth.box.remove() }
        try web.serve(booth.box.localStore)
        try booth.smtp.down(true)
        let (post, answer) = try booth.post()
        #expect(post.status == 75, "\(post.stderr)")
        #expect(answer["status"] as? String == "uploaded")
        let id = try #require(answer["id"] as? String)
        let link = try #require(answer["shareURL"] as? String)
        let mail = try #require(answer["mail"] as? [String: Any])
        #expect(mail["status"] as? String == "queued")
        #expect((mail["to"] as? String)?.contains("***") == true)
        for text in [post.stdout, post.stderr] { #expect(!text.lowercased().contains("guest.name"), "the address was printed: \(text)") }
        #expect(booth.mailJobs.count == 1)

        let list = try booth.mailList()
        let waiting = try #require(list["waiting"] as? [[String: Any]])
        try #require(waiting.count == 1)
        #expect(waiting[0]["post"] as? String == id && waiting[0]["attempts"] as? Int == 1)
        #expect((waiting[0]["to"] as? String)?.hasPrefix("G***@") == true, "\(waiting[0])")
        #expect(waiting[0]["lastError"] != nil)
        #expect(!(try booth.recorder(["outbox", "mail"]).stdout.lowercased().contains("guest.name")))

        try booth.smtp.down(false)
        let flush = try booth.recorder(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let afterFlush = try booth.mailList()
        #expect(afterFlush["sent"] as? Int == 1 && (afterFlush["waiting"] as? [Any])?.isEmpty == true, "\(afterFlush)")
        let received = try booth.smtp.received()
        try #require(received.count == 1)
        #expect(received[0].envelope["rcpt_tos"] as? [String] == [Self.guest])
        #expect(received[0].envelope["tls"] as? Bool == true && received[0].envelope["confirmed"] as? Bool == true)
        let parsed = try SMTPFixture.parse(received[0].path)
        let headers = parsed["headers"] as? [String: [String]] ?? [:]
        #expect(headers["To"] == [Self.guest])
        #expect(headers["Subject"] == ["Your video from Anna & Ben's wedding"])
        #expect(headers["Message-ID"]?.first?.contains(id) == true, "\(headers["Message-ID"] ?? [])")
        #expect((parsed["defects"] as? [String])?.isEmpty == true)
        let text = try #require(parsed["text"] as? String)
        #expect(text.contains(link), "\(text)")
        #expect(text.contains("the first dance"))
        #expect((parsed["images"] as? [[String: Any]])?.count == 1, "the poster inline")
        // The link, fetched by curl, is the video that was shot.
        let fetched = "\(booth.box.root)/fetched.mp4"
        let curl = try Tools.run("curl", ["-sSf", "-o", fetched, link])
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(try sha256(of: fetched) == sha256(of: "\(booth.box.localStore)/videos/\(id).mp4"))

        // Sent: the address only as a count.
        #expect(booth.mailJobs.isEmpty)
        #expect(!(try booth.outboxText(includingQueue: true)).lowercased().contains("guest.name"))
        #expect((try booth.mailList())["sent"] as? Int == 1)
        let before = booth.transactions
        #expect(try booth.recorder(["outbox", "flush"]).status == 0)
        #expect(try booth.transactions == before && booth.smtp.received().count == 1)
    }

    /// A mail waiting out its retry's wait when the organiser flushes: the flush says what it did
    /// with it (nothing yet, and from when it is tried again), as data with --json, and does not
    /// end 0 as if nothing waited (issue 49: "nothing to upload", exit 0, while a mail waited).
    @Test func aFlushSaysWhatItDidWithAMailWaitingForItsRetry() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.down(true)
        let (post, _) = try booth.post()
        #expect(post.status == 75, "\(post.stderr)")
        let job = try #require(booth.mailJobs.first)
        // Its retry an hour on, as a backoff of an hour leaves it (full jitter may draw a wait of 0).
        let next = RFC3339.string(Date().addingTimeInterval(3600))
        let path = "\(booth.box.outbox)/mail/queue/\(job)"
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        record["nextAttemptAt"] = next
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))
        try booth.smtp.down(false)

        let flush = try booth.recorder(["outbox", "flush", "--json"])
        #expect(failed(flush) == Failed(75, "busy", "CLIMailFailure.mailsWaiting"), "\(flush.stdout) \(flush.stderr)")
        let documents = flush.stdout.split(separator: "\n").compactMap { try? jsonObject(String($0)) }
        let mail = try #require(documents.compactMap { $0["mail"] as? [String: Any] }.first, "\(flush.stdout)")
        #expect(mail["sent"] as? Int == 0 && mail["waiting"] as? Int == 1 && mail["nextAttemptAt"] as? String == next
                && mail["waitingForPost"] as? Int == 0 && mail["refused"] as? Int == 0, "\(mail)")
        let data = documents.last?["data"] as? [String: Any]
        #expect(data?["count"] as? Int == 1 && data?["next"] as? String == next, "\(flush.stdout)")
        // Said without --json too, with the same status; and nothing was sent before its time.
        let plain = try booth.recorder(["outbox", "flush"])
        #expect(plain.status == 75, "\(plain.stdout)")
        #expect(try booth.smtp.received().isEmpty && booth.mailJobs.count == 1)
    }

    /// A connection cut after the whole message went, before the server's reply: the mail may be
    /// there, so it is sent again, once, with the same Message-ID; then never again.
    @Test func aCutAfterTheMessageBeforeItsReplySendsItAgainOnceWithTheSameMessageID() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.fault(["mode": "cut-after-data", "count": 1])
        let (post, answer) = try booth.post()
        #expect(post.status == 75, "\(post.stderr)")
        #expect((answer["mail"] as? [String: Any])?["status"] as? String == "queued")
        let flush = try booth.recorder(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let received = try booth.smtp.received()
        try #require(received.count == 2)
        #expect(received.map { $0.envelope["confirmed"] as? Bool } == [false, true])
        let ids = try received.map { try (SMTPFixture.parse($0.path)["headers"] as? [String: [String]])?["Message-ID"] }
        #expect(ids[0] != nil && ids[0] == ids[1])
        #expect(try booth.recorder(["outbox", "flush"]).status == 0)
        #expect(try booth.smtp.received().count == 2 && booth.mailJobs.isEmpty)
    }

    /// A cut in the middle of the message (before its final dot): the server kept nothing; the
    /// next flush sends it, once.
    @Test func aCutInTheMiddleOfTheMessageSendsItOnTheNextFlush() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.fault(["mode": "cut-data", "after": 2000, "count": 1])
        let (post, _) = try booth.post()
        #expect(post.status == 75, "\(post.stderr)")
        #expect((try booth.smtp.received()).isEmpty)
        #expect(try booth.recorder(["outbox", "flush"]).status == 0)
        let received = try booth.smtp.received()
        #expect(received.count == 1 && received.first?.envelope["confirmed"] as? Bool == true)
    }

    /// The server's 250 read, then the connection cut at once: the mail was sent, and is not sent
    /// again.
    @Test func aCutRightAfterThe250IsSentAndNeverSentAgain() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.fault(["mode": "cut-after-250", "count": 1])
        let (post, answer) = try booth.post()
        #expect(post.status == 0, "\(post.stderr)")
        #expect((answer["mail"] as? [String: Any])?["status"] as? String == "sent")
        #expect(booth.mailJobs.isEmpty)
        let before = booth.transactions
        #expect(try booth.recorder(["outbox", "flush"]).status == 0)
        #expect(try booth.transactions == before && booth.smtp.received().count == 1)
    }

    /// A 4xx (greylisting): kept with the server's words, sent by the next flush.
    @Test func fourXXThenTheNextFlushGetsItThrough() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.fault(["mode": "refuse", "at": "rcpt", "code": 451, "text": "4.7.1 Greylisted, come back later", "count": 1])
        let (post, _) = try booth.post()
        #expect(post.status == 75, "\(post.stderr)")
        let waiting = try #require((try booth.mailList())["waiting"] as? [[String: Any]])
        let greylisted = smtpReply(waiting.first?["failure"])
        #expect(greylisted?.refusal == "temporaryRefusal" && greylisted?.code == 451, "\(waiting)")
        #expect(try booth.recorder(["outbox", "flush"]).status == 0)
        #expect(try booth.smtp.received().count == 1 && booth.mailJobs.isEmpty)
    }

    /// A 5xx: kept and shown as refused, not tried again by later flushes, until the operator
    /// lets it go again (`--retry`).
    @Test func fiveXXIsKeptShownAndNotTriedAgainUntilRetried() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.fault(["mode": "refuse", "at": "rcpt", "code": 550, "text": "5.1.1 <\(Self.guest)>: No such user here"])
        let (post, answer) = try booth.post()
        #expect(post.status == 69, "\(post.stderr)")
        #expect((answer["mail"] as? [String: Any])?["status"] as? String == "refused")
        let list = try booth.mailList()
        let refused = try #require(list["refused"] as? [[String: Any]])
        try #require(refused.count == 1)
        let reply = smtpReply(refused[0]["failure"])
        // The server's words are kept, the guest's address in them masked.
        #expect(reply?.refusal == "permanentRefusal" && reply?.code == 550 && reply?.text == "5.1.1 <G***@e***.org>: No such user here", "\(refused)")
        #expect(!(try booth.recorder(["outbox", "mail", "--json"])).stdout.lowercased().contains("guest.name"))
        #expect((list["waiting"] as? [Any])?.isEmpty == true && list["sent"] as? Int == 0, "\(list)")
        let before = booth.transactions
        for _ in 0..<2 { #expect(try booth.recorder(["outbox", "flush"]).status == 0) }
        #expect(booth.transactions == before, "a refused mail was tried again")

        try booth.smtp.fault(nil)
        let id = try #require(refused[0]["id"] as? String)
        #expect(try booth.recorder(["outbox", "mail", "--retry", id]).status == 0)
        #expect(try booth.recorder(["outbox", "flush"]).status == 0)
        #expect(try booth.smtp.received().count == 1 && booth.mailJobs.isEmpty)
    }

    /// A server's refusal that echoes the guest's address (issue 50): the masking missed local
    /// parts with `' / ! { }` (a 550 to <x{rej}y@example.com> was kept as `x{rej}y***@e***.com`,
    /// in the job, the journal and the operator page). Each address, echoed bare, in `<>`,
    /// upper-cased or quoted, is masked everywhere the refusal goes: the post's own words, the job
    /// on the disk, `outbox mail` and its JSON.
    @Test func aRefusalEchoingTheAddressInAnySpellingKeepsNoneOfIt() throws {
        let cases = [("x{rej}y@example.com", "<x{rej}y@example.com>", "x{rej}y"), ("o'r@example.com", "O'R@EXAMPLE.COM", "o'r"),
                     ("first/r@example.com", "\"first/r\"@example.com", "first/r"), ("evil.example!r@example.com", "evil.example!r@example.com", "example!r")]
        for (address, echoed, local) in cases {
            let booth = try Booth()
            defer { booth.box.remove() }
            try booth.smtp.fault(["mode": "refuse", "at": "rcpt", "code": 550, "text": "5.1.1 \(echoed): Recipient address rejected"])
            let (post, answer) = try booth.post(email: address)
            #expect(post.status == 69, "\(post.stderr)")
            #expect((answer["mail"] as? [String: Any])?["status"] as? String == "refused", "\(answer)")
            let reply = smtpReply(try #require((try booth.mailList())["refused"] as? [[String: Any]]).first?["failure"])
            let replyText = (reply?.text).flatMap { $0 } ?? ""
            #expect(reply?.code == 550 && replyText.hasSuffix(": Recipient address rejected"), "\(String(describing: reply))")
            let shown = [post.stdout, post.stderr, try booth.recorder(["outbox", "mail"]).stdout, try booth.recorder(["outbox", "mail", "--json"]).stdout]
            for text in shown + [replyText] {
                #expect(!text.lowercased().contains(local), "\(address), echoed as \(echoed): \(text)")
            }
            // On the disk the job keeps the address itself (to send it again), and its failure none of it.
            let jobs = try booth.mailJobs.map { try jsonObject(String(contentsOfFile: "\(booth.box.outbox)/mail/queue/\($0)", encoding: .utf8)) }
            try #require(jobs.count == 1)
            #expect(jobs[0]["address"] as? String == address)
            func texts(_ value: Any) -> [String] {
                (value as? String).map { [$0] } ?? (value as? [String: Any])?.values.flatMap(texts) ?? (value as? [Any])?.flatMap(texts) ?? []
            }
            let failure = texts(jobs[0]["lastFailure"] ?? [:])
            #expect(failure.contains { $0.contains("Recipient address rejected") } && !failure.contains { $0.lowercased().contains(local) }, "\(failure)")
        }
    }

    /// kill -9 of `recorder post --email` while the server holds the message unanswered: the next
    /// flush sends it again, once, with the same Message-ID (the first copy was never confirmed).
    @Test func killedWhileSendingTheNextFlushSendsItOnce() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.smtp.fault(["mode": "stall-after-data"])
        try booth.box.shoot(seconds: 1)
        let running = try booth.box.start(["post", "--caption", "", "--email", Self.guest])
        var held = false
        for _ in 0..<1200 {
            if (try booth.smtp.received()).count == 1 { held = true; break }
            usleep(50_000)
        }
        kill(running.process.processIdentifier, SIGKILL)
        _ = try Tools.finish(running)
        try #require(held, "the server never got the message")
        #expect(booth.mailJobs.count == 1)
        try booth.smtp.fault(nil)
        let flush = try booth.recorder(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let received = try booth.smtp.received()
        try #require(received.count == 2)
        #expect(received.map { $0.envelope["confirmed"] as? Bool } == [false, true])
        let ids = try received.map { try (SMTPFixture.parse($0.path)["headers"] as? [String: [String]])?["Message-ID"] }
        #expect(ids[0] != nil && ids[0] == ids[1])
        #expect(booth.mailJobs.isEmpty)
    }

    /// An address that is not one: refused with the usage status, nothing queued, the shot kept.
    @Test func anAddressThatIsNotOneQueuesNothing() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.box.shoot(seconds: 1)
        for bad in ["no-at-sign.example", "two@@example.org", "guest@example.org\r\nBcc: x@example.org", String(repeating: "a", count: 65) + "@example.org"] {
            let post = try booth.recorder(["post", "--caption", "", "--email", bad, "--json"])
            #expect(failed(post) == Failed(64, "invalidRequest", "CLIMailFailure.badAddress"), "\(bad): \(post.stderr)")
        }
        #expect(booth.box.queued().isEmpty && booth.mailJobs.isEmpty)
        #expect(FileManager.default.fileExists(atPath: booth.box.currentVideo))
    }

    /// A bad `mail.*` value stops `recorder post --email` and `recorder kiosk` at their start
    /// (78), naming the key; nothing is queued.
    @Test func aBadMailSettingStopsAtTheStartWith78() throws {
        let booth = try Booth()
        defer { booth.box.remove() }
        try booth.box.shoot(seconds: 1)
        let cases: [(String, String)] = [
            ("mail.smtp_url=ftp://127.0.0.1", "mail.smtp_url"),
            ("mail.smtp_url=smtp://user:pw@127.0.0.1", "mail.credentials_file"),
            ("mail.from=", "mail.from"),
            ("mail.from=not an address", "mail.from"),
            ("mail.template=relative.txt", "mail.template"),
            ("mail.template=/nonexistent/mail.txt", "mail.template"),
            ("mail.insecure=maybe", "mail.insecure"),
        ]
        for (set, key) in cases {
            let post = try booth.recorder(["post", "--caption", "", "--email", Self.guest, "--set", set])
            #expect(post.status == 78, "\(set): \(post.stderr)")
            #expect(post.stderr.contains(key), "\(set): \(post.stderr)")
            let kiosk = try booth.kiosk(["--set", set])
            #expect(kiosk.status == 78, "\(set): \(kiosk.stderr)")
            #expect(kiosk.stderr.contains(key), "\(set): \(kiosk.stderr)")
        }
        let open = "\(booth.box.root)/open-credentials"
        try "user = a\npassword = b\n".write(toFile: open, atomically: true, encoding: .utf8)
        chmod(open, 0o644)
        let kiosk = try booth.kiosk(["--set", "mail.credentials_file=\(open)"])
        #expect(kiosk.status == 78 && kiosk.stderr.contains("chmod 600"), "\(kiosk.stderr)")
        #expect(booth.box.queued().isEmpty && booth.mailJobs.isEmpty)
    }
}

/// A plain web server over a directory (Python's http.server), for fetching a share link made
/// from share.base_url = http://127.0.0.1:PORT/{key}. Started before the sandbox knows its
/// directory: it serves a folder that is then linked to the store.
final class StoreWebServer {
    let root: String
    let port: Int
    private let process: Process

    init() throws {
        root = try Tools.tempDirectory()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", "\(root)/site", "0"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var text = ""
        var found: Int?
        for _ in 0..<600 where found == nil {
            text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            if let range = text.range(of: #"port (\d+)"#, options: .regularExpression) { found = Int(text[range].dropFirst(5)) }
        }
        port = try #require(found, "http.server did not start: \(text)")
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Serves `directory` from now on.
    func serve(_ directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(root)/site", withDestinationPath: directory)
    }

    deinit {
        S3Fixture.stop(process)
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// The server's refusal in a mail row's `failure` (`outbox mail --json`): which refusal, and the
/// reply's code and text.
private func smtpReply(_ failure: Any?) -> (refusal: String?, code: Int?, text: String?)? {
    guard let failure = failure as? [String: Any], failure["case"] as? String == "smtp",
          let smtp = failure["cause"] as? [String: Any], let reply = smtp["value"] as? [String: Any] else { return nil }
    return (smtp["case"] as? String, reply["code"] as? Int, reply["text"] as? String)
}
