import Foundation
import Testing
import Failures

/// `recorder feed --purge-expired` with `retention.local_days`: this machine's old copies are listed,
/// then deleted with --yes; the store's post stays (that is retention.days).
@Suite struct LocalRetentionCommandTests {
    @Test func theMachinesOldCopiesAreListedThenDeleted() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        _ = try box.shoot(seconds: 0.5)
        let posted = try box.recorder(["post", "--caption", "sent", "--json"])
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String, "\(posted.stderr)")
        _ = try box.shoot(seconds: 0.5)
        #expect(FileManager.default.fileExists(atPath: box.currentVideo))
        // Neither retention set: the purge says which settings it needs.
        let unset = try box.recorder(["feed", "--purge-expired", "--json"])
        #expect(failed(unset) == Failed(78, "misconfigured", "CLIFailure.purgeNeedsRetention"), "\(unset.stderr)")

        // A life of about a second, then a second's wait: everything on the machine is old.
        let life = ["--set", "retention.local_days=0.00001"]
        Thread.sleep(forTimeInterval: 1.5)
        let dry = try box.recorder(["feed", "--purge-expired", "--json"] + life)
        #expect(dry.status == 0, "\(dry.stderr)")
        let listed = try #require(try jsonObject(dry.stdout)["local"] as? [String: Any], "\(dry.stdout)")
        #expect((listed["shots"] as? [String])?.count == 1 && listed["sentRecords"] as? [String] == [id] && listed["dryRun"] as? Bool == true, "\(listed)")
        #expect(FileManager.default.fileExists(atPath: box.currentVideo), "a dry run deletes nothing")
        #expect(FileManager.default.fileExists(atPath: "\(box.outbox)/sent/\(id).json"))

        let done = try box.recorder(["feed", "--purge-expired", "--yes", "--json"] + life)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        let deleted = try #require(try jsonObject(done.stdout)["local"] as? [String: Any], "\(done.stdout)")
        #expect((deleted["shots"] as? [String])?.count == 1 && deleted["sentRecords"] as? [String] == [id] && deleted["dryRun"] as? Bool == false, "\(deleted)")
        #expect(!FileManager.default.fileExists(atPath: box.currentVideo))
        #expect(!FileManager.default.fileExists(atPath: "\(box.outbox)/sent/\(id).json"))
        #expect(FileManager.default.fileExists(atPath: "\(box.localStore)/videos/\(id).mp4"), "the store's post is not the machine's copy")
        // Nothing is left to post: the workspace says so.
        let again = try box.recorder(["post", "--caption", "x"])
        #expect(again.status == 66, "\(again.stderr)")
    }
}
