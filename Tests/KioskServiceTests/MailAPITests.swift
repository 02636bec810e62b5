import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
@testable import KioskService
@testable import Publishing
@testable import Settings
import Shooting
import StorageUpload
import MailValues
import Synchronization
import Testing
import SystemSupport
@testable import KioskWords
@testable import KioskState
import Failures

/// `POST /api/mail` (issue 43) against the kiosk's router, in this process: what it refuses (an
/// address that is not one, another guest's post, mail off) queues nothing, and what it takes is
/// one job naming the post, whose address reaches the queue and no log line.
@Suite(.serialized) struct MailAPITests {
    static let operatorToken = AccessTests.operatorToken
    static let boothToken = AccessTests.boothToken
    static let guest = "Guest.Name+video@example.org"

    /// Mail settings whose server is a loopback port nothing listens on: these tests send nothing.
    static func mailSettings() throws -> MailSettings {
        MailSettings(sender: try SMTPSender(SMTPSettings(url: "smtp://127.0.0.1:\(KioskProcessTests.freePort())")),
                     from: try MailAddress("booth@photo.example"))
    }

    /// `{"id": id, "address": address}` as JSON (control characters escaped as JSON escapes them).
    static func mailBody(id: String, address: String?) throws -> ByteBuffer {
        var fields = ["id": id]
        if let address { fields["address"] = address }
        return ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: fields))
    }

    /// A guest at the booth: shoots (the fixture's second of test pattern) and posts it, with
    /// `token`; the post's id.
    static func shootAndPost<R>(_ client: RouterTestClient<R>, _ fixture: KioskFixture, token: String?,
                                caption: String) async throws -> String {
        try await client.execute(uri: "/api/shoot", method: .post, headers: AccessTests.headers(token), body: ByteBuffer(string: "{}")) { response in
            try #require(response.status == .accepted, "shoot: \(String(buffer: response.body))")
        }
        try await fixture.waitFor("idle")
        let shot = try #require(fixture.kiosk.manager.workspace.currentShot()).id
        let body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["id": shot, "caption": caption]))
        return try await client.execute(uri: "/api/post", method: .post, headers: AccessTests.headers(token), body: body) { response in
            try #require(response.status == .accepted, "post: \(String(buffer: response.body))")
            return try #require(object(response)["id"] as? String)
        }
    }

    /// Asks for a mail; the answer's status and JSON.
    @discardableResult
    static func mail<R>(_ client: RouterTestClient<R>, token: String?, id: String, address: String?) async throws
        -> (status: HTTPResponse.Status, answer: [String: Any]) {
        try await client.execute(uri: "/api/mail", method: .post, headers: AccessTests.headers(token), body: try mailBody(id: id, address: address)) { response in
            (response.status, object(response))
        }
    }

    /// The files in the outbox's mail queue (none when it was never made).
    static func jobFiles(_ fixture: KioskFixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.directory + "/outbox/mail/queue")) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// A metric's value in the kiosk's `/metrics` text (the line `name value`), nil when absent.
    static func metric(_ fixture: KioskFixture, _ name: String) -> Double? {
        fixture.kiosk.metrics.text().split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Addresses that are not ones, each with the rule (`MailAddress.Problem`) it breaks.
    static var badAddresses: [(String, MailAddress.Problem)] {
        let label = String(repeating: "d", count: 60)
        // 64 + 1 + 190 = 255 octets: each part within its limit, the path over RFC 5321's 254.
        let domain190 = [label, label, label].joined(separator: ".") + ".example"
        return [
            ("no-at-sign.example.org", .atSigns(count: 0)),
            ("two@at@example.org", .atSigns(count: 2)),
            (String(repeating: "a", count: 65) + "@example.org", .localPartTooLong(octets: 65)),
            ("guest@" + Array(repeating: label, count: 5).joined(separator: ".") + ".org", .domainTooLong(octets: 308)),
            (String(repeating: "a", count: 64) + "@" + domain190, .tooLong(octets: 255)),
            ("gu\u{1}est@example.org", .controlCharacter(1)),
            ("guest@example.org\r\nBcc: other@example.org", .controlCharacter(13)),
            ("guest\u{7f}@example.org", .controlCharacter(0x7f)),
        ]
    }

    /// Each bad address: 400, kind badData, the guest's "not an address" key; nothing is queued,
    /// from the booth's token (its guest's own post) or the operator's.
    @Test func aBadAddressIsRefusedAsBadDataAndNothingIsQueued() async throws {
        let log = CapturedLog()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, mail: try Self.mailSettings(), logger: log.logger)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let id = try await Self.shootAndPost(client, fixture, token: Self.boothToken, caption: "the first dance")
            for (address, problem) in Self.badAddresses {
                // The address breaks the rule it is here for (and no other first).
                #expect(MailQueue.problem(with: address.trimmed()) == problem, "\(address.debugDescription)")
                for token in [Self.boothToken, Self.operatorToken] {
                    let (status, answer) = try await Self.mail(client, token: token, id: id, address: address)
                    #expect(status == .badRequest, "\(address.debugDescription): \(answer)")
                    #expect(answer["kind"] as? String == RecorderError.Kind.badData.rawValue, "\(answer)")
                    #expect(answer["guestKey"] as? String == GuestStrings.Key.mailInvalid.rawValue, "\(answer)")
                    #expect(answer["status"] as? Int == 400)
                }
            }
            // No address at all: the request is incomplete (invalidRequest), also the guest's "not an address".
            let (status, answer) = try await Self.mail(client, token: Self.boothToken, id: id, address: nil)
            #expect(status == .badRequest && answer["kind"] as? String == RecorderError.Kind.invalidRequest.rawValue, "\(answer)")
            #expect(answer["guestKey"] as? String == GuestStrings.Key.mailInvalid.rawValue)
        }
        #expect(Self.jobFiles(fixture).isEmpty, "queued: \(Self.jobFiles(fixture))")
        #expect(fixture.kiosk.mail?.queue.jobs().isEmpty == true)
        #expect(Self.metric(fixture, #"recorder_mails_total{result="queued"}"#) == 0)
        // Nor is a refused address logged.
        for line in log.lines {
            for (address, _) in Self.badAddresses { #expect(!line.contains(address), "an address was logged: \(line)") }
        }
    }

    /// Guest 1 posts A and may mail it; guest 2 steps up and posts B: from then on the booth's
    /// screen (one token for every guest, the same request whoever types) is refused a mail of A
    /// (409 notCurrentShot), both while guest 2 records and after B is posted, and nothing is
    /// queued for A; B's own mail goes, and the operator may still mail A.
    @Test func mailForAnotherGuestsPostIsRefusedAndNothingIsQueued() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, mail: try Self.mailSettings())
        defer { fixture.remove() }
        await fixture.start()
        let queue = try #require(fixture.kiosk.mail?.queue)
        func jobs(of post: String) -> Int { queue.jobs().count { $0.postID == post } }
        try await fixture.application().test(.router) { client in
            let a = try await Self.shootAndPost(client, fixture, token: Self.boothToken, caption: "guest one")
            // Guest 1, on their thank-you: taken.
            #expect(try await Self.mail(client, token: Self.boothToken, id: a, address: "one@example.org").status == .accepted)
            #expect(jobs(of: a) == 1)

            // Guest 2 starts a shot: guest 1's post leaves the booth's screen.
            try await client.execute(uri: "/api/shoot", method: .post, headers: AccessTests.headers(Self.boothToken), body: ByteBuffer(string: "{}")) {
                #expect($0.status == .accepted)
            }
            let (whileShooting, refusal) = try await Self.mail(client, token: Self.boothToken, id: a, address: "two@example.org")
            #expect(whileShooting == .conflict && refusal["kind"] as? String == "notCurrentShot", "\(refusal)")
            try await fixture.waitFor("idle")
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot()).id
            let b = try await client.execute(uri: "/api/post", method: .post, headers: AccessTests.headers(Self.boothToken),
                                             body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["id": shot, "caption": "guest two"]))) { response in
                try #require(response.status == .accepted)
                return try #require(object(response)["id"] as? String)
            }
            #expect(b != a)
            // After B is posted: A by guest 2, or by guest 1 coming back (the same request).
            for address in ["two@example.org", "one.again@example.org"] {
                let (status, answer) = try await Self.mail(client, token: Self.boothToken, id: a, address: address)
                #expect(status == .conflict, "\(answer)")
                #expect(answer["kind"] as? String == "notCurrentShot", "\(answer)")
            }
            #expect(jobs(of: a) == 1, "a mail of another guest's post was queued")
            // Guest 2's own post: taken.
            #expect(try await Self.mail(client, token: Self.boothToken, id: b, address: "two@example.org").status == .accepted)
            #expect(jobs(of: b) == 1)
            // The operator reaches any post: the refusal was the booth's, not the post's.
            #expect(try await Self.mail(client, token: Self.operatorToken, id: a, address: "operator@example.org").status == .accepted)
            #expect(jobs(of: a) == 2)
        }
        #expect(Self.metric(fixture, #"recorder_mails_total{result="queued"}"#) == 3)
    }

    /// Mail off (no `mail.*`): 404, kind notFound, for the post on the booth's screen; no queue is made.
    @Test func mailWhenMailIsOffIsNotFoundAndNothingIsQueued() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        #expect(fixture.kiosk.mail == nil)
        let (_, ids) = try AdminAPITests.posts(1, in: fixture)
        // Its guest's thank-you is up: mail is the one thing missing.
        fixture.kiosk.guests.handle(.posted(id: ids[0]))
        try await fixture.application().test(.router) { client in
            for token in [Self.boothToken, Self.operatorToken] {
                let (status, answer) = try await Self.mail(client, token: token, id: ids[0], address: Self.guest)
                #expect(status == .notFound, "\(answer)")
                #expect(answer["kind"] as? String == RecorderError.Kind.notFound.rawValue)
                #expect(answer["guestKey"] as? String == GuestStrings.Key.tryAgain.rawValue)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/outbox/mail"), "a mail queue was made with mail off")
    }

    /// The guest's own post, the address as typed (spaces around it): 202, one job naming the post
    /// with the trimmed address, answered masked; the same address again is the same job. The
    /// address is in no log line of the kiosk (every level, message and metadata), while the
    /// mail's and the post's ids are.
    @Test func anAcceptedMailQueuesOneJobNamingThePostAndLogsNoAddress() async throws {
        let log = CapturedLog()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, mail: try Self.mailSettings(), logger: log.logger)
        defer { fixture.remove() }
        await fixture.start()
        let queue = try #require(fixture.kiosk.mail?.queue)
        try await fixture.application().test(.router) { client in
            let id = try await Self.shootAndPost(client, fixture, token: Self.boothToken, caption: "the first dance")
            let (status, answer) = try await Self.mail(client, token: Self.boothToken, id: id, address: "  \(Self.guest)\n")
            #expect(status == .accepted, "\(answer)")
            #expect(answer["status"] as? String == "queued")
            let mailID = try #require(answer["mail"] as? String)
            let masked = try #require(answer["to"] as? String)
            #expect(masked == (try MailAddress(Self.guest)).masked)
            let jobs = queue.jobs()
            try #require(jobs.count == 1, "\(jobs)")
            #expect(jobs[0].id == mailID && jobs[0].postID == id && jobs[0].address == Self.guest && jobs[0].state == .queued)
            #expect(Self.jobFiles(fixture) == ["\(mailID).json"])
            // The same address again (another case): the mail already queued.
            let (again, second) = try await Self.mail(client, token: Self.boothToken, id: id, address: Self.guest.uppercased())
            #expect(again == .accepted && second["mail"] as? String == mailID, "\(second)")
            #expect(queue.jobs().count == 1)

            let lines = log.lines
            #expect(lines.contains { $0.contains(mailID) && $0.contains(id) }, "the queued mail was not logged, so nothing was captured: \(lines)")
            for line in lines {
                #expect(!line.lowercased().contains("guest.name"), "the address was logged: \(line)")
            }
        }
    }
}

extension MailAPITests {
    /// Issue 50: with the booth's token, 18 posts and 173 mails to any addresses went out in 32 s
    /// (10 a post was the only limit). Now at most kiosk.mail_per_minute and kiosk.mail_per_hour
    /// are queued, whoever asks; the next is refused (429), and the operator page's problems say so
    /// once when a limit is reached, not at every refusal.
    @Test func theKiosksMailsAMinuteAndAnHourAreLimitedAndTheOperatorIsTold() async throws {
        let clock = TestClock()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, more: ["kiosk.mail_per_minute": "3", "kiosk.mail_per_hour": "5"],
                                       clock: clock, mail: try Self.mailSettings())
        defer { fixture.remove() }
        await fixture.start()
        let queue = try #require(fixture.kiosk.mail?.queue)
        try await fixture.application().test(.router) { client in
            let id = try await Self.shootAndPost(client, fixture, token: Self.boothToken, caption: "many friends")
            var sent = 0
            // The booth's token while its guest's thank-you is up; the operator's once the clock has
            // moved past it (the limits are everybody's).
            func ask(expecting status: HTTPResponse.Status, _ note: String, token: String = Self.boothToken) async throws {
                sent += 1
                let (answer, body) = try await Self.mail(client, token: token, id: id, address: "friend\(sent)@example.org")
                #expect(answer == status, "mail \(sent), \(note): \(body)")
                if status == .tooManyRequests { #expect(body["kind"] as? String == "tooMany", "\(body)") }
            }
            let problems = { fixture.kiosk.problems.newestFirst.filter { $0.level == "warning" }.count }
            let before = problems()
            for _ in 1...3 { try await ask(expecting: .accepted, "within the minute's 3") }
            try await ask(expecting: .tooManyRequests, "the minute's 4th")
            #expect(problems() == before + 1, "the operator is told the limit was reached")
            try await ask(expecting: .tooManyRequests, "the minute's 5th")
            #expect(problems() == before + 1, "once, not at every refusal")
            #expect(queue.jobs().count == 3)
            clock.advance(by: .seconds(61))
            for _ in 1...2 { try await ask(expecting: .accepted, "a new minute, within the hour's 5", token: Self.operatorToken) }
            try await ask(expecting: .tooManyRequests, "the hour's 6th", token: Self.operatorToken)
            #expect(problems() == before + 2, "the hour's limit is told too")
            clock.advance(by: .seconds(3600))
            try await ask(expecting: .accepted, "a new hour", token: Self.operatorToken)
            #expect(queue.jobs().count == 6)
        }
    }
}

/// A journal for a test to read: every record at every level, as `level message metadata`.
final class CapturedLog: Sendable {
    private let records = Mutex<[String]>([])

    var lines: [String] { records.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) { records.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata more: Logger.Metadata?, source: String, file: String,
                 function: String, line: UInt) {
            let all = metadata.merging(more ?? [:]) { $1 }
            log.append("\(level) \(message) \(all.map { "\($0)=\($1)" }.sorted().joined(separator: " "))")
        }
    }
}
