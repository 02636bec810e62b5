import Foundation
import Synchronization
import Testing
@testable import Settings
@testable import Publishing
import StorageUpload
import SystemSupport

/// The drain's backoff counts by the clock it is handed: a test moves a TestClock through an
/// hour's backoff in no time, and the drain's thread waits on a signal, never in a sleep.
@Suite struct OutboxDrainClockTests {
    /// Polls `condition` (a thread's doing, seen through its status) up to a generous deadline.
    private func within(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            if ContinuousClock.now > end { return false }
            usleep(5_000)
        }
        return true
    }

    @Test func anHoursBackoffPassesWhenTheClockIsMoved() throws {
        let root = NSTemporaryDirectory() + "drain-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outbox = Outbox(root: root + "/outbox")
        try outbox.prepare()
        let video = root + "/v"
        try Data("video".utf8).write(to: URL(fileURLWithPath: video))
        let digest = try FileDigest.compute(path: video)
        let id = PostID.random()
        let meta = PostMetadata(id: id, video: "\(id).mp4", key: PostMetadata.videoKey(id: id), metadataKey: PostMetadata.metadataKey(id: id),
                                url: "", ext: "mp4", width: 2, height: 2, durationSeconds: 1, frameRate: 30, codec: "h264",
                                byteSize: digest.size, sha256: digest.sha256, caption: "x", author: .init(id: "a", name: "a"),
                                createdAt: "2026-11-22T00:00:00Z", camera: "test", likeCount: 0, shareCount: 0, commentCount: 0)
        _ = try outbox.enqueue(video: video, metadata: meta, shotID: "s")
        // The store cannot take it: a file is where its directory must be (a real failure).
        let store = root + "/store"
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: store))

        let clock = TestClock()
        let drain = OutboxDrain(outbox: outbox, policy: RetryPolicy(initialSeconds: 3600, maximumSeconds: 3600), idleRecheckSeconds: 3600,
                                clock: clock, makeUploader: { willSend throws(RecorderError) in
            OutboxUploader(outbox: outbox, backend: LocalDirectoryBackend(root: store, createsRoot: false),
                           policy: RetryPolicy(maximumAttempts: 1), log: { _ in }, willSend: willSend)
        })
        drain.start()
        defer { drain.stop() }
        #expect(within { drain.status.failedAttempts == 1 }, "the first flush fails")
        // An hour of backoff later by the clock (it may have drawn less), the drain tries again.
        clock.advance(by: .seconds(3600))
        #expect(within { drain.status.failedAttempts == 2 }, "\(drain.status)")
        // The store is back: the next hour's attempt sends the post.
        try FileManager.default.removeItem(atPath: store)
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        clock.advance(by: .seconds(3600))
        #expect(within { drain.status.uploadedCount == 1 }, "\(drain.status)")
        #expect(outbox.items().isEmpty && drain.status.lastFailure == nil)
    }
}
