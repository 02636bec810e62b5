import Foundation
import Testing

/// Parts in parallel against SeaweedFS.
@Suite(.serialized) struct S3ParallelTests: S3Suite {
    private func peak(_ s3: S3Fixture) -> Int {
        Int((try? String(contentsOfFile: "\(s3.dir)/proxy/peak", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    @Test func partsGoUpAsManyAtOnceAsConfiguredEvenOnTwoCores() throws {
        let s3 = try S3Fixture()
        // 3 parts of 5 MiB, 3 at once: on a 2-core machine libdispatch's concurrentPerform ran 2.
        let box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "3"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        let parts = (try FileManager.default.attributesOfItem(atPath: box.currentVideo)[.size] as? Int).map { ($0 + (5 << 20) - 1) / (5 << 20) }
        try #require(parts == 3, "the large shot should make 3 parts of 5 MiB")
        // Slow connections (1.5 MB/s each) make every part's body overlap the others'.
        try s3.faults([["match": "", "action": "throttle", "rate": 1_500_000, "count": 1_000_000]])
        let id = try postedID(try box.recorder(["post", "--caption", "parallel", "--json"]))
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(peak(s3) == 3, "at most \(peak(s3)) part bodies were in flight at once")
    }

    /// The most threads `recorder post` had at once, sampled from /proc while it ran.
    private func peakThreads(of post: RunningProcess) -> Int {
        var most = 0
        while post.process.isRunning {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(post.process.processIdentifier)/task"))?.count ?? 0
            most = max(most, threads)
            usleep(10_000)
        }
        return most
    }

    @Test func partsInParallelAreSentFromOneThread() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "1"]) { $1 })
        defer { box.remove() }
        // Slow connections keep the parts in flight for seconds, long enough to count the threads.
        try s3.faults([["match": "", "action": "throttle", "rate": 1_500_000, "count": 1_000_000]])
        let firstSHA = try box.shootLarge()
        let one = try box.start(["post", "--caption", "one part at a time", "--json"])
        let threadsForOne = peakThreads(of: one)
        _ = try fetch(s3, id: try postedID(try Tools.finish(one)), shotSHA: firstSHA, in: box)

        unlink("\(s3.dir)/proxy/peak")
        box.extraEnvironment["RECORDER_S3_PARALLEL_PARTS"] = "3"
        let secondSHA = try box.shootLarge()
        let three = try box.start(["post", "--caption", "three parts at once", "--json"])
        let threadsForThree = peakThreads(of: three)
        _ = try fetch(s3, id: try postedID(try Tools.finish(three)), shotSHA: secondSHA, in: box)
        // Three part bodies on the wire at once, and not a thread more than for one (a thread per
        // part would be two more); one of slack for a helper thread that comes and goes.
        #expect(peak(s3) == 3)
        #expect(threadsForThree <= threadsForOne + 1, "\(threadsForThree) threads for 3 parts at once, \(threadsForOne) for 1")
    }

    @Test func faultsWithPartsInParallelStillEndInOneWholeObject() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "3"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        try s3.faults([
            ["match": "partNumber=2&", "action": "reset", "after": 1_000_000, "count": 1],
            ["match": "partNumber=3&", "action": "respond", "status": 503, "count": 1,
             "body": "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"],
            ["match": "partNumber=1&", "action": "stall", "after": 2_000_000, "count": 1],
        ])
        let result = try box.recorder(["post", "--caption", "parallel faults", "--json", "--attempts", "20"])
        let id = try postedID(result)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(try s3.keys(prefix: "videos/") == ["videos/\(id).mp4"])
        #expect(try s3.pendingUploads() == 0)
        #expect(box.queued().isEmpty)
    }
}

/// ETags that are not MD5s (SSE-KMS, SSE-C, several S3-compatible stores).
extension S3UploadTests {
    @Test func anETagThatIsNotAnMD5IsConfirmedBySHA256AndNeverUploadedAgainUnderANewName() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        let shotSHA = try box.shoot()
        s3.opaqueETags(true)
        let result = try box.recorder(["post", "--caption", "kms", "--json", "--attempts", "3"])
        let id = try postedID(result)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        // One object, sent once: no retries, no second name.
        #expect(try s3.keys(prefix: "videos/") == ["videos/\(id).mp4"])
        #expect(s3.requests().filter { $0.method == "PUT" && $0.path.hasPrefix("/clips/videos/") }.count == 1, "\(s3.requests())")
        #expect(!result.stderr.contains("is taken"), "\(result.stderr)")

        // A flush that finds the object already stored (a crash after the PUT) takes it as its own.
        let second = try box.shoot()
        let queued = try box.recorder(["post", "--caption", "kms 2", "--json", "--attempts", "1",
                                       "--set", "s3.endpoint=http://127.0.0.1:1"])
        #expect(queued.status == 75, "\(queued.stderr)")
        let folder = try #require(box.queued().first)
        let pending = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(box.outbox)/queue/\(folder)/post.json"))) as? [String: Any])
        let pendingID = try #require(pending["id"] as? String)
        // The video is already in the store, as an earlier attempt would have left it.
        let put = try Tools.run("curl", ["-sS", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "\(S3Fixture.access):\(S3Fixture.secret)",
                                         "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", "-H", "x-amz-meta-sha256: \(second)",
                                         "-T", "\(box.outbox)/queue/\(folder)/video.mp4", "-w", "%{http_code}",
                                         "http://127.0.0.1:\(s3.serverPort)/\(S3Fixture.bucket)/videos/\(pendingID).mp4"])
        #expect(put.stdout.hasSuffix("200"), "\(put.stdout) \(put.stderr)")
        s3.clearRequests()
        let flushed = try box.recorder(["outbox", "flush", "--attempts", "3"])
        #expect(flushed.status == 0, "\(flushed.stderr)")
        #expect(!flushed.stderr.contains("is taken"), "\(flushed.stderr)")
        #expect(s3.requests().filter { $0.method == "PUT" && $0.path.hasPrefix("/clips/videos/") }.isEmpty, "\(s3.requests())")
        #expect(try s3.keys(prefix: "videos/").sorted() == ["videos/\(id).mp4", "videos/\(pendingID).mp4"].sorted())
        s3.opaqueETags(false)
    }
}
