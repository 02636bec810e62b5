import Foundation
import Testing
import StorageUpload
#if canImport(Glibc)
import Glibc
#endif

/// The real `recorder kiosk` killed with -9 between queueing a guest's mail and sending it (issue
/// 43): the mail is in the outbox's queue, so the kiosk started again on the same outbox sends it,
/// once, and the job leaves the queue. Against a real SMTP server on loopback (aiosmtpd,
/// Tests/mail/smtp-server.py), which answers 4xx until the kiosk is killed.
@Suite(.serialized) struct KioskMailCrashTests {
    static let guest = "Guest.Name+video@example.org"

    /// A sandbox whose configuration reaches `smtp`, retrying a failed mail after a second.
    static func booth(_ smtp: SMTPFixture) throws -> PostSandbox {
        var box = try PostSandbox()
        let settings = try smtp.settings()
        let config = "\(box.root)/config/recorder.conf"
        try """
        retry.initial_seconds = 1
        retry.max_seconds = 1
        share.base_url = http://127.0.0.1:9/{key}
        mail.smtp_url = \(settings.url)
        mail.from = Photo booth <booth@photo.example>
        mail.credentials_file = \(settings.credentialsFile!)
        mail.ca_file = \(settings.caFile!)
        shoot.size = 320x240
        shoot.fps = 15
        """.write(toFile: config, atomically: true, encoding: .utf8)
        box.extraEnvironment["RECORDER_CONFIG"] = config
        return box
    }

    /// `recorder kiosk` on the test pattern, once it answers; its process and address.
    static func kiosk(_ box: PostSandbox) throws -> (RunningProcess, String) {
        let port = try S3Fixture.listenPort()
        let process = try box.start(["kiosk", "--device", "testsrc", "--listen", "127.0.0.1:\(port)", "--seconds", "1", "--countdown", "0"])
        let base = "http://127.0.0.1:\(port)"
        let end = Date().addingTimeInterval(60)
        while Date() < end && process.process.isRunning {
            if request("GET", base + "/api/status").status == 200 { return (process, base) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        if process.process.isRunning { process.process.terminate() }
        let said = try Tools.finish(process).stderr
        try #require(Bool(false), "the kiosk did not answer within 60 s: \(said.suffix(2000))")
        throw CancellationError()
    }

    /// One request with curl: the status and the JSON object answered (empty when none).
    static func request(_ method: String, _ url: String, json: [String: Any]? = nil) -> (status: Int, answer: [String: Any]) {
        var arguments = ["-s", "--max-time", "20", "-X", method, "-w", "\n%{http_code}", url]
        if let json, let data = try? JSONSerialization.data(withJSONObject: json) {
            arguments += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)]
        }
        guard let output = try? Tools.run("curl", arguments) else { return (0, [:]) }
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.dropLast().joined(separator: "\n")
        return (Int(lines.last ?? "") ?? 0, (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:])
    }

    /// Polls `done` every 100 ms for at most `seconds`; whether it came true.
    static func within(_ seconds: Double, _ done: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try done() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try done()
    }

    /// The mail jobs in the outbox's queue, as their files say.
    static func jobs(_ box: PostSandbox) -> [[String: Any]] {
        let dir = "\(box.outbox)/mail/queue"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        return names.compactMap { (try? Data(contentsOf: URL(fileURLWithPath: "\(dir)/\($0)"))).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } }
    }

    @Test(.timeLimit(.minutes(5))) func aKioskKilledBeforeItsMailWentSendsItOnceWhenStartedAgain() throws {
        let smtp = try SMTPFixture()
        let box = try Self.booth(smtp)
        defer { box.remove() }
        // Greylisting: every transaction refused with a 4xx, until the fault is cleared.
        try smtp.fault(["mode": "refuse", "at": "rcpt", "code": 451, "text": "4.7.1 Greylisted, come back later"])

        let (first, base) = try Self.kiosk(box)
        defer { if first.process.isRunning { kill(first.process.processIdentifier, SIGKILL) } }
        // A guest shoots, posts, and asks for the mail on their thank-you.
        #expect(Self.request("POST", base + "/api/shoot", json: [:]).status == 202)
        var shot: String?
        #expect(try Self.within(60) {
            let status = Self.request("GET", base + "/api/status").answer
            shot = (status["currentShot"] as? [String: Any])?["id"] as? String
            return status["state"] as? String == "idle" && shot != nil
        }, "the shot did not end")
        let posted = Self.request("POST", base + "/api/post", json: ["id": try #require(shot), "caption": "the first dance"])
        #expect(posted.status == 202, "\(posted.answer)")
        let id = try #require(posted.answer["id"] as? String)
        let mail = Self.request("POST", base + "/api/mail", json: ["id": id, "address": Self.guest])
        #expect(mail.status == 202, "\(mail.answer)")
        let mailID = try #require(mail.answer["mail"] as? String)

        // The kiosk uploads the post and tries the mail; the server refuses it (4xx); kill -9.
        #expect(try Self.within(60) {
            smtp.count("refused") >= 1 && (Self.jobs(box).first?["attempts"] as? Int ?? 0) >= 1
        }, "the kiosk never tried the mail: \(smtp.events())")
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        #expect(first.process.terminationReason == .uncaughtSignal && first.process.terminationStatus == SIGKILL)
        #expect(try smtp.received().isEmpty)
        let waiting = Self.jobs(box)
        try #require(waiting.count == 1, "\(waiting)")
        #expect(waiting[0]["id"] as? String == mailID && waiting[0]["postID"] as? String == id)
        #expect(waiting[0]["refusedAt"] == nil, "a 4xx is tried again, not kept as refused")

        // The server takes mail again; the kiosk starts again on the same outbox.
        try smtp.fault(nil)
        let (second, _) = try Self.kiosk(box)
        defer { if second.process.isRunning { kill(second.process.processIdentifier, SIGKILL) } }
        #expect(try Self.within(60) { try smtp.received().count >= 1 && Self.jobs(box).isEmpty },
                "the mail was not sent after the restart: \(smtp.events()), queue \(Self.jobs(box))")
        // A few more seconds for a second copy to show if one were coming (the kiosk's outbox
        // and mail drains both make passes in that time), then a clean stop.
        Thread.sleep(forTimeInterval: 3)
        kill(second.process.processIdentifier, SIGTERM)
        second.process.waitUntilExit()

        let received = try smtp.received()
        try #require(received.count == 1, "\(received.count) messages arrived")
        #expect(received[0].envelope["rcpt_tos"] as? [String] == [Self.guest])
        #expect(received[0].envelope["confirmed"] as? Bool == true)
        let headers = try SMTPFixture.parse(received[0].path)["headers"] as? [String: [String]] ?? [:]
        let messageIDs = try #require(headers["Message-ID"])
        #expect(messageIDs.count == 1 && messageIDs[0].contains(id), "\(messageIDs)")
        // The transaction that went through was the only one after the refusals.
        #expect(smtp.count("mail") == smtp.count("refused") + 1, "\(smtp.events())")
        #expect(Self.jobs(box).isEmpty)
        // Its record, without the address; no attempt left half done.
        let sent = try FileManager.default.contentsOfDirectory(atPath: "\(box.outbox)/mail/sent")
        #expect(sent == ["\(mailID).json"], "\(sent)")
        let record = try String(contentsOfFile: "\(box.outbox)/mail/sent/\(mailID).json", encoding: .utf8)
        #expect(!record.lowercased().contains("guest.name"))
    }
}
