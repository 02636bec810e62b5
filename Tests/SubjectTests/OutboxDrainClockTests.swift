import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Settings
@testable import Publishing
import StorageUpload
import SystemSupport
import Failures
import Posting

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

    /// An outbox in `root` with one small post queued; the post's id.
    static func outboxWithOnePost(in root: String) throws -> (Outbox, String) {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
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
        return (outbox, id)
    }

    @Test func anHoursBackoffPassesWhenTheClockIsMoved() throws {
        let root = NSTemporaryDirectory() + "drain-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (outbox, _) = try Self.outboxWithOnePost(in: root)
        // The store cannot take it: a file is where its directory must be (a real failure).
        let store = root + "/store"
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: store))

        let clock = TestClock()
        let drain = OutboxDrain(outbox: outbox, policy: RetryPolicy(initialSeconds: 3600, maximumSeconds: 3600), idleRecheckSeconds: 3600,
                                clock: clock, makeUploader: { willSend throws(RecorderError) in
            OutboxUploader(outbox: outbox, backend: LocalDirectoryBackend(root: store, createsRoot: false),
                           policy: RetryPolicy(maximumAttempts: 1), poster: Posters.jpeg, log: { _ in }, willSend: willSend)
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

/// `outbox flush`'s own retries (several attempts in one flush) wait by the clock handed in.
@Suite struct OutboxUploaderClockTests {
    @Test func aFlushsHourOfBackoffPassesWhenTheClockIsMoved() throws {
        // (a flush's failure is in its report; `try?` keeps only whether one came)
        let root = NSTemporaryDirectory() + "uploader-clock-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (outbox, id) = try OutboxDrainClockTests.outboxWithOnePost(in: root)
        // A store nothing answers (a closed port on loopback): a retryable failure each time.
        let store = try S3Backend(S3Configuration(
            endpoint: "http://127.0.0.1:1", region: "us-east-1", bucket: "clips", prefix: "",
            credentials: S3Credentials(accessKeyID: "a", secretAccessKey: "b", source: "the test")))
        let clock = TestClock()
        let attempts = Mutex(0), waits = Mutex(0)
        let uploader = OutboxUploader(outbox: outbox, backend: store,
                                      policy: RetryPolicy(initialSeconds: 3600, maximumSeconds: 3600, maximumAttempts: 2), clock: clock,
                                      poster: Posters.jpeg, log: { _ in waits.withLock { $0 += 1 } }, willSend: { _ in attempts.withLock { $0 += 1 } })
        let done = DispatchSemaphore(value: 0)
        let report = Mutex<OutboxUploader.Report?>(nil)
        WorkerThread.start(name: "test-flush") {
            report.withLock { $0 = try? uploader.flush() }
            done.signal()
        }
        // The first attempt fails; the flush then waits (up to an hour by the clock).
        let end = ContinuousClock.now + .seconds(60)
        while waits.withLock({ $0 }) < 1 && ContinuousClock.now < end { usleep(5_000) }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut, "the flush waits for its backoff")
        // An hour by the clock, no machine time: the second (last) attempt, then the flush ends
        // with the post still queued. (moved again if it came before the wait began)
        var moves = 0
        repeat {
            clock.advance(by: .seconds(3600))
            moves += 1
        } while done.wait(timeout: .now() + 0.5) == .timedOut && moves < 120
        #expect(moves < 120, "the flush's backoff passed when the clock moved")
        #expect(attempts.withLock { $0 } == 2)
        #expect(report.withLock { $0?.remaining.map(\.metadata.id) } == [id])
    }
}
