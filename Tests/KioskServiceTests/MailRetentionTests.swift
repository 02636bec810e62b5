import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import KioskService
@testable import Publishing
@testable import Settings
import StorageUpload
import MailValues
import Testing
import SystemSupport
@testable import KioskState
import FleetValues

/// Retention and guests' mail at the kiosk (issue 43): a mail waiting for the server when its post
/// expires is forgotten by the mail drain's next pass, never sent, and counted as forgotten.
///
/// The kiosk's clock (`TestClock`) is what retention, the mail queue and the drain's waits
/// measure by, and it is moved here. The move makes the drain's next pass (its idle recheck is
/// due), so the clock moves only while the drain waits between passes: a pass under way when it
/// moved would read the time before and act after, which no real pass can (CI, stop 45: the
/// mail's second pass, woken by its queueing, read the old time for retention and the new one
/// for the backoff, and tried the mail again).
@Suite(.serialized) struct MailRetentionTests {
    @Test func theDrainsNextPassForgetsAMailWhosePostRetentionRemoved() async throws {
        // A server that refuses the connection: the mail fails, and waits its backoff (an hour).
        let settings = MailSettings(sender: try SMTPSender(SMTPSettings(url: "smtp://127.0.0.1:\(KioskProcessTests.freePort())")),
                                    from: try MailAddress("booth@photo.example"))
        let fixture = try KioskFixture(token: MailAPITests.operatorToken,
                                       more: ["retention.days": "1", "kiosk.id": "booth-a",
                                              "retry.initial_seconds": "3600", "retry.max_seconds": "3600"],
                                       mail: settings)
        defer { fixture.remove() }
        await fixture.start()
        let mail = try #require(fixture.kiosk.mail)
        let retention = try #require(fixture.kiosk.library.share.retention)
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        let id = try await fixture.application().test(.router) { client in
            let id = try await MailAPITests.shootAndPost(client, fixture, token: MailAPITests.operatorToken, caption: "expires")
            try await fixture.waitForUpload(id)
            let (status, answer) = try await MailAPITests.mail(client, token: MailAPITests.operatorToken, id: id, address: MailAPITests.guest)
            #expect(status == .accepted, "\(answer)")
            return id
        }
        #expect(try store.stat(key: PostMetadata.metadataKey(id: id)) != nil)
        let job = try #require(mail.queue.jobs().first)
        #expect(job.postID == id)

        // The drain tries it once: refused connection, next try an hour on.
        mail.drain.start()
        try await fixture.until(seconds: 30, "the mail was not tried") {
            mail.queue.job(id: job.id)?.attempts == 1 && MailAPITests.metric(fixture, "recorder_mail_failed_attempts_total") == 1
        }
        #expect(mail.queue.job(id: job.id)?.nextAttemptAt != nil)
        #expect(await mail.drain.waitUntilIdle(), "the drain did not come to rest after its first try")

        // Two days on, past retention.days: the kiosk's purge deletes the post from the store.
        fixture.clock.advance(by: .seconds(2 * 86_400))
        await fixture.kiosk.retention.purge(retention, now: fixture.clock.date)
        #expect(try #require(await fixture.kiosk.overview.overview().retention).deleted == 1)
        #expect(try store.stat(key: PostMetadata.metadataKey(id: id)) == nil, "retention did not delete the post")

        // The drain's next pass: the job is forgotten (not tried again, though its backoff is
        // over), nothing was sent, and the metrics count it.
        mail.drain.wake()
        try await fixture.until(seconds: 30, "the mail of the expired post is still queued") { mail.queue.jobs().isEmpty }
        #expect(mail.queue.job(id: job.id) == nil)
        #expect(mail.queue.counts() == MailQueue.Counts(queued: 0, refused: 0, sent: 0))
        try await fixture.until(seconds: 10, "the forgotten mail was not counted") {
            MailAPITests.metric(fixture, #"recorder_mails_total{result="forgotten"}"#) == 1
        }
        // (the drain comes to rest before the queue is counted)
        #expect(await mail.drain.waitUntilIdle(), "the drain did not come to rest after forgetting")
        #expect(MailAPITests.metric(fixture, "recorder_mail_failed_attempts_total") == 1, "the mail was tried again after its post expired")
        #expect(MailAPITests.metric(fixture, #"recorder_mails_total{result="sent"}"#) == 0)
        // (the mail queue's counts are the booth's heartbeat's, which /metrics gives as of the scrape)
        #expect(await fixture.kiosk.heartbeats.snapshot().mail?.waiting == 0)
    }
}
