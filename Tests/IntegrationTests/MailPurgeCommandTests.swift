import Foundation
import Testing
@testable import Settings
@testable import Publishing
import StorageUpload
import MailValues
import SystemSupport

/// `recorder feed --purge-expired --yes` and guests' mail (issue 43): the mails of the posts it
/// purges are forgotten at once (a waiting mail is never sent, an address a sent mail's record
/// kept is removed); a listing, or a purge refused for a clock in doubt, forgets nothing. The
/// command measures by the machine's clock (it takes no other), so the posts are made in the past.
@Suite struct MailPurgeCommandTests {
    @Test func aPurgeForgetsTheMailsOfThePostsItDeletesAndNoOthers() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        box.extraEnvironment["RECORDER_KIOSK_ID"] = "booth-a"
        box.extraEnvironment["RECORDER_RETENTION_DAYS"] = "1"
        let seeder = StoreSeeder(store: LocalDirectoryBackend(root: box.localStore))
        func post(_ id: String, age: Double, kiosk: String = "booth-a") throws -> PostMetadata {
            var metadata = seeder.metadata(id: id, caption: id, created: Date().addingTimeInterval(-age), video: Array(id.utf8))
            metadata.kiosk = kiosk
            try seeder.post(metadata, video: Array(id.utf8))
            return metadata
        }
        let old = try post("MAILOLDPS0", age: 3 * 86_400)
        let young = try post("MAILNEWPS0", age: 3600)
        let queue = MailQueue(outboxRoot: box.outbox)
        let oldJob = try queue.request("old@example.org", for: old, consentText: nil)
        let youngJob = try queue.request("young@example.org", for: young, consentText: nil)
        // A mail of the old post already sent, whose record kept its address (a consent text asked).
        var kept = MailJob(id: queue.newID(), postID: old.id, address: try MailAddress("kept@example.org"), caption: "",
                           postCreatedAt: old.createdAt, queuedAt: old.createdAt, keepAddress: true)
        kept.attempts = 1
        try queue.add(kept)
        try queue.preparePending(kept)
        try queue.confirm(kept)
        try queue.completeSent(kept, reply: SMTPReply(code: 250, text: "2.0.0 OK", step: .endOfMessage), at: RFC3339.string(Date()))
        #expect(queue.keptAddresses(postID: old.id) == ["kept@example.org"])
        func queued() -> Set<String> { Set(queue.jobs().map(\.id)) }
        #expect(queued() == [oldJob.id, youngJob.id])

        // A listing forgets nothing.
        let dry = try box.recorder(["feed", "--purge-expired", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let listed = try jsonObject(dry.stdout)
        #expect(listed["mailsForgotten"] as? Int == 1 && listed["addressesForgotten"] as? Int == 1, "\(listed)")
        #expect(queued() == [oldJob.id, youngJob.id] && queue.keptAddresses(postID: old.id) == ["kept@example.org"])

        // A clock in doubt (a post made "tomorrow" by another kiosk): nothing deleted, nothing forgotten.
        _ = try post("MAILAHEAD0", age: -86_400, kiosk: "booth-b")
        let doubted = try box.recorder(["feed", "--purge-expired", "--yes"])
        #expect(doubted.status == 75, "\(doubted.status) \(doubted.stderr)")
        #expect(queued() == [oldJob.id, youngJob.id] && queue.keptAddresses(postID: old.id) == ["kept@example.org"])
        try PostFeed(store: LocalDirectoryBackend(root: box.localStore)).delete(id: "MAILAHEAD0")

        let done = try box.recorder(["feed", "--purge-expired", "--yes", "--json"])
        #expect(done.status == 0, "\(done.stdout) \(done.stderr)")
        let report = try jsonObject(done.stdout)
        #expect(report["deleted"] as? Int == 1, "\(report)")
        #expect(report["mailsForgotten"] as? Int == 1 && report["addressesForgotten"] as? Int == 1, "\(report)")
        #expect(!FileManager.default.fileExists(atPath: "\(box.localStore)/\(PostMetadata.metadataKey(id: old.id))"))
        // The purged post's waiting mail is gone, never to be sent; the kept address with it; the
        // young post's mail waits on.
        #expect(queued() == [youngJob.id])
        #expect(queue.job(id: oldJob.id) == nil)
        #expect(queue.keptAddresses(postID: old.id).isEmpty)
        // (the record stays, as the count of mails sent)
        #expect(queue.counts() == MailQueue.Counts(queued: 1, refused: 0, sent: 1))
        let files = try FileManager.default.subpathsOfDirectory(atPath: "\(box.outbox)/mail").compactMap {
            try? String(contentsOfFile: "\(box.outbox)/mail/\($0)", encoding: .utf8)
        }.joined()
        #expect(!files.contains("old@example.org") && !files.contains("kept@example.org"), "an address of the purged post is still in the outbox")
    }
}
