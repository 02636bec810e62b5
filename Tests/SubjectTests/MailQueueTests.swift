import Foundation
import Testing
@testable import Publishing
import StorageUpload
import MailValues

/// The outbox's mail queue as files: where an address lives and when it goes (a guest's delete,
/// retention, a sent mail), what a crash in the middle of a send leaves, what is counted. The
/// sending itself, against a real server: IntegrationTests/MailOutboxTests.
@Suite struct MailQueueTests {
    static func queue() throws -> MailQueue {
        let root = ShotWorkspaceTests.tempRoot()
        let queue = MailQueue(outboxRoot: root)
        try queue.prepare()
        return queue
    }

    static func job(_ queue: MailQueue, post: String, address: String = "guest@example.org", keep: Bool = false,
                    madeAt: String = "2026-11-20T10:00:00Z") throws -> MailJob {
        let job = MailJob(id: queue.newID(), postID: post, address: try MailAddress(address), caption: "", postCreatedAt: madeAt,
                          queuedAt: madeAt, keepAddress: keep)
        try queue.add(job)
        return job
    }

    /// What the sender does around the server's 250 (MailDelivery.attempt), without a server.
    static func markSent(_ queue: MailQueue, _ job: MailJob) throws {
        try queue.preparePending(job)
        try queue.confirm(job)
        try queue.completeSent(job, reply: SMTPReply(code: 250, text: "2.0.0 OK", step: .endOfMessage), at: "2026-11-20T10:01:00Z")
    }

    static func files(_ queue: MailQueue) -> String {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: queue.root)) ?? []
        return names.compactMap { try? String(contentsOfFile: "\(queue.root)/\($0)", encoding: .utf8) }.joined(separator: "\n")
    }

    @Test func aSentMailKeepsNoAddressUnlessItsConsentAskedAndIsCounted() throws {
        let queue = try Self.queue()
        let plain = try Self.job(queue, post: "AAAAAAAAAA", address: "plain@example.org")
        let kept = try Self.job(queue, post: "BBBBBBBBBB", address: "kept@example.org", keep: true)
        #expect(queue.counts() == MailQueue.Counts(queued: 2, refused: 0, sent: 0))
        try Self.markSent(queue, plain)
        try Self.markSent(queue, kept)
        #expect(queue.jobs().isEmpty)
        #expect(queue.counts() == MailQueue.Counts(queued: 0, refused: 0, sent: 2))
        #expect(!Self.files(queue).contains("plain@example.org"))
        #expect(queue.keptAddresses(postID: "BBBBBBBBBB") == ["kept@example.org"])
        #expect(queue.keptAddresses(postID: "AAAAAAAAAA").isEmpty)
    }

    /// A sender reads a job, the guest deletes the post, the sender counts its attempt: the job
    /// stays gone (mail_page caught a deleted post's mail written back this way, then sent).
    @Test func aJobDeletedWhileASenderHoldsItIsNotWrittenBack() throws {
        let queue = try Self.queue()
        var held = try Self.job(queue, post: "AAAAAAAAAA")
        #expect(queue.forget(postID: "AAAAAAAAAA").jobs == [held.id])
        held.attempts += 1
        #expect(try queue.update(held) == false)
        #expect(queue.jobs().isEmpty && queue.job(id: held.id) == nil)
        let other = try Self.job(queue, post: "BBBBBBBBBB")
        var counted = other
        counted.attempts += 1
        #expect(try queue.update(counted) == true)
        #expect(queue.job(id: other.id)?.attempts == 1)
    }

    @Test func aDeletedPostTakesItsWaitingMailAndKeptAddressAndLeavesTheCount() throws {
        let queue = try Self.queue()
        let waiting = try Self.job(queue, post: "AAAAAAAAAA", address: "waiting@example.org")
        let other = try Self.job(queue, post: "CCCCCCCCCC", address: "other@example.org")
        let kept = try Self.job(queue, post: "AAAAAAAAAA", address: "kept@example.org", keep: true)
        try Self.markSent(queue, kept)
        let gone = queue.forget(postID: "AAAAAAAAAA")
        #expect(gone.jobs == [waiting.id] && gone.addresses == [kept.id])
        #expect(queue.jobs().map(\.id) == [other.id])
        #expect(queue.counts().sent == 1)
        let text = Self.files(queue)
        #expect(!text.contains("waiting@example.org") && !text.contains("kept@example.org") && text.contains("other@example.org"))
    }

    @Test func retentionForgetsTheMailOfPostsMadeBeforeTheCutoff() throws {
        let queue = try Self.queue()
        let old = try Self.job(queue, post: "AAAAAAAAAA", madeAt: "2026-01-01T00:00:00Z")
        let recent = try Self.job(queue, post: "BBBBBBBBBB", madeAt: "2026-11-20T00:00:00Z")
        let gone = queue.forget(postsMadeBefore: ISO8601DateFormatter().date(from: "2026-06-01T00:00:00Z")!)
        #expect(gone.jobs == [old.id])
        #expect(queue.jobs().map(\.id) == [recent.id])
    }

    /// Killed after the server's 250 was recorded, before the job went: the next pass removes the
    /// job and never sends it again. Killed before the 250 (a pending record only): the job stays,
    /// to be sent again.
    @Test func aCrashAroundThe250LeavesTheRecordInChargeOfWhetherItGoesAgain() throws {
        let queue = try Self.queue()
        let confirmed = try Self.job(queue, post: "AAAAAAAAAA")
        let unconfirmed = try Self.job(queue, post: "BBBBBBBBBB")
        try queue.preparePending(confirmed)
        try queue.confirm(confirmed)
        try queue.preparePending(unconfirmed)
        queue.finishInterrupted()
        #expect(queue.jobs().map(\.id) == [unconfirmed.id])
        #expect(queue.counts() == MailQueue.Counts(queued: 1, refused: 0, sent: 1))
        #expect(!FileManager.default.fileExists(atPath: "\(queue.root)/sent/.pending-\(unconfirmed.id).json"))
    }

    @Test func aConsentTextAsksToKeepAddressesWithALineStartingWithTheEnvelope() {
        #expect(MailConsent.keepLine(in: "We film you.\n  ✉ We keep your address until the page closes.  \nThanks") == "We keep your address until the page closes.")
        #expect(MailConsent.keepLine(in: "✉️ With the emoji selector.") != nil)
        #expect(MailConsent.keepLine(in: "We film you. Mail us at a@b.c ✉ not at the start.") == nil)
        #expect(!MailConsent.asksToKeep("We film you."))
    }
}
