import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import Failures

/// `recorder post` against a real S3 server (SeaweedFS), through the fault-injecting proxy, with
/// curl (SigV4) as the independent reader. Each test has its own server; the suite's tests run one
/// after another (the feed's, the streaming and the parallel-parts suites run beside it).
@Suite(.serialized) struct S3UploadTests: S3Suite {
    @Test func roundTripSinglePutKeepsCaptionsOutOfHeaders() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let caption = "Line one\r\nX-Injected: yes\n\u{202B}שלום\u{202C} 🎉👨‍👩‍👧"
        let id = try postedID(try box.recorder(["post", "--caption", caption, "--json"]))
        let metadata = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(metadata["caption"] as? String == "Line one\nX-Injected: yes\n\u{202B}שלום\u{202C} 🎉👨‍👩‍👧")
        // The video went up in one PUT whose ETag is the file's MD5 (checked with md5sum).
        let md5 = try Tools.run("md5sum", ["\(box.root)/fetched.mp4"]).stdout.prefix(32)
        #expect(try s3.etag("videos/\(id).mp4") == String(md5))
        let log = s3.requestLog()
        #expect(!log.contains("X-Injected") && !log.contains("שלום") && !log.contains("Line one"))
        #expect(log.contains("x-amz-content-sha256: \(shotSHA)"), "the video PUT must carry its real SHA-256")
        #expect(s3.requests().filter { $0.method == "PUT" && $0.path.hasPrefix("/clips/videos/") }.count == 1)
    }

    @Test func multipartRoundTripCompletesFromItsOwnETags() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, S3Fixture.multipart)
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        let parts = try partCount(box)
        try #require(parts >= 2, "the large shot fits in one part")
        let id = try postedID(try box.recorder(["post", "--caption", "big", "--json"]))
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(try s3.etag("videos/\(id).mp4")?.hasSuffix("-\(parts)") == true)
        let requests = s3.requests()
        #expect(requests.filter { $0.hasQuery("partNumber") }.count == parts, "\(requests)")
        #expect(!requests.contains { $0.method == "GET" && $0.hasQuery("uploadId") }, "must not use ListParts: \(requests)")
        #expect(try s3.pendingUploads() == 0)
    }

    @Test func wrongSecretIsRefusedClearlyAndThePostStaysQueued() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3, ["AWS_SECRET_ACCESS_KEY": "not-the-secret"])
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let result = try box.recorder(["post", "--caption", "x", "--json"])
        // 77: denied (the credentials), not retried (75) nor the store's settings (78).
        #expect(queued(result) == Failed(77, "denied", "PostFailure.notUploaded"), "\(result.stdout) \(result.stderr)")
        #expect(!(result.stderr + result.stdout).contains("not-the-secret"))
        #expect(box.queued().count == 1)
        let refused = try box.recorder(["outbox", "flush", "--json"])
        #expect(failed(refused) == Failed(77, "denied", "CLIFailure.stillQueued"), "\(refused.stderr)")
        let listing = try box.recorder(["outbox", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]], "\(listing.stdout)")
        #expect(rows.count == 1 && rows[0]["attempts"] as? Int == 2 && rows[0]["lastError"] is String, "\(rows)")
        box.extraEnvironment["AWS_SECRET_ACCESS_KEY"] = S3Fixture.secret
        let flush = try box.recorder(["outbox", "flush", "--json"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let id = try #require(try jsonObject(flush.stdout)["id"] as? String)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(box.queued().isEmpty)
    }

    @Test func resetsStallsThrottlingAndErrorBodiesAreRetried() throws {
        let s3 = try S3Fixture()
        // One part at a time, so each fault is met (with parts in parallel, the first failure ends the attempt).
        let box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "1"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        try s3.faults([
            ["match": "POST /clips/videos/", "action": "respond", "status": 503, "count": 1,
             "body": "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"],
            ["match": "partNumber=1&", "action": "reset", "after": 1_000_000, "count": 1],
            ["match": "partNumber=2&", "action": "stall", "after": 2_000_000, "count": 1],
            ["match": "partNumber=3&", "action": "respond", "status": 400, "count": 1,
             "body": "<Error><Code>RequestTimeout</Code><Message>Your socket connection to the server was not read from or written to within the timeout period.</Message></Error>"],
            ["match": "?uploadId=", "action": "respond", "status": 200, "count": 1,
             "body": "<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>"],
        ])
        let result = try box.recorder(["post", "--caption", "faults", "--json", "--attempts", "20"])
        let id = try postedID(result)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        for said in ["SlowDown", "reset", "timed out or stalled", "RequestTimeout", "InternalError"] {
            #expect(result.stderr.contains(said), "expected a retry after \(said): \(result.stderr)")
        }
        #expect(try s3.keys(prefix: "videos/") == ["videos/\(id).mp4"])
        #expect(try s3.pendingUploads() == 0)
    }

    @Test func otherClientErrorsAreNotRetried() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        try box.shoot()
        try s3.faults([["match": "PUT /clips/videos/", "action": "respond", "status": 400, "count": 1,
                        "body": "<Error><Code>InvalidArgument</Code><Message>Injected bad argument</Message></Error>"]])
        let result = try box.recorder(["post", "--caption", "x", "--attempts", "5", "--json"])
        // Not uploaded (the store refused), not a busy store to try again (75); its words (the S3 code and
        // message) are the store's to give: StorageUploadTests.
        #expect(queued(result) == Failed(69, "unavailable", "PostFailure.notUploaded"), "\(result.stdout) \(result.stderr)")
        #expect(s3.requests().filter { $0.method == "PUT" && $0.path.hasPrefix("/clips/videos/") }.count == 1)
        #expect(box.queued().count == 1)
    }

    @Test func serverKilledAndRestartedMidUploadStillCompletesOnce() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "1"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        let post = try startSlowPost(s3, box, ["--caption", "restart", "--json", "--attempts", "200"])
        s3.stopServer()
        try s3.faults([])
        usleep(500_000)
        try s3.startServer()
        let result = try Tools.finish(post)
        let id = try postedID(result)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(try s3.keys(prefix: "videos/") == ["videos/\(id).mp4"])
        #expect(try s3.keys(prefix: "posts/") == ["posts/\(id).json"])
        #expect(try s3.pendingUploads() == 0)
    }

    @Test func killedMidMultipartResumesWithoutResendingAcknowledgedParts() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "1"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        let parts = try partCount(box)
        try killMidMultipart(s3, box, caption: "resume")
        let acknowledged = try journaledPartNumbers(box)
        try #require(acknowledged.count < parts)
        s3.clearRequests()
        let flush = try box.recorder(["outbox", "flush", "--json", "--attempts", "5"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let id = try #require(try jsonObject(flush.stdout)["id"] as? String)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        let requests = s3.requests()
        // Exactly the parts the journal did not hold go up (a part a loaded machine timed out may go
        // up twice: counted by number, not by request).
        let sent = Set(requests.compactMap { $0.query["partNumber"].flatMap { Int($0) } })
        #expect(sent == Set(1...parts).subtracting(acknowledged), "sent \(sent.sorted()), journaled \(acknowledged.sorted()): \(requests)")
        #expect(!requests.contains { $0.hasQuery("uploads") }, "the upload must resume, not restart: \(requests)")
        #expect(try s3.pendingUploads() == 0)
    }

    /// The store starts a multipart upload and its answer is lost on the way (or a power cut comes
    /// before the journal that names it is on the disk): the store holds an upload no journal
    /// names. The next attempt aborts it before starting its own, so none is left open.
    @Test func anUploadStartedWithoutItsAnswerArrivingIsNotLeftOpen() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "1"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        try s3.faults([["regex": "^POST .*[?]uploads=", "action": "hold-answer", "count": 2]])
        let result = try box.recorder(["post", "--caption", "unanswered", "--json", "--attempts", "5"])
        let id = try postedID(result)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        let requests = s3.requests()
        let started = requests.filter { $0.method == "POST" && $0.hasQuery("uploads") }.count
        try #require(started == 3, "the proxy held two starts' answers: \(requests)")
        #expect(requests.filter { $0.method == "DELETE" && $0.hasQuery("uploadId") }.count == 2, "\(requests)")
        #expect(try s3.pendingUploads() == 0)
        #expect(box.queued().isEmpty)
    }

    @Test func anUploadAbandonedForANewPartSizeIsAborted() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3, S3Fixture.multipart.merging(["RECORDER_S3_PARALLEL_PARTS": "1"]) { $1 })
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        try killMidMultipart(s3, box, caption: "abandon")
        #expect(try s3.pendingUploads() == 1)
        box.extraEnvironment["RECORDER_S3_PART_SIZE_MIB"] = "6"
        box.extraEnvironment["RECORDER_S3_MULTIPART_THRESHOLD_MIB"] = "6"
        let flush = try box.recorder(["outbox", "flush", "--json", "--attempts", "5"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let id = try #require(try jsonObject(flush.stdout)["id"] as? String)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(s3.requests().contains { $0.method == "DELETE" && $0.hasQuery("uploadId") }, "\(s3.requests())")
        #expect(try s3.pendingUploads() == 0)
    }

    @Test func aTakenNameIsNeverOverwritten() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3, ["RECORDER_S3_ENDPOINT": "http://127.0.0.1:\(try S3Fixture.freePort())"])
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let offline = try box.recorder(["post", "--caption", "x", "--json", "--attempts", "1"])
        #expect(offline.status == 75)
        let queuedID = try #require(try jsonObject(offline.stdout)["id"] as? String)
        // Somebody else's post already has that name.
        let other = "\(box.root)/other.bin"
        try Data("someone else's video".utf8).write(to: URL(fileURLWithPath: other))
        let put = try Tools.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--aws-sigv4", "aws:amz:us-east-1:s3",
                                         "--user", "\(S3Fixture.access):\(S3Fixture.secret)", "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD",
                                         "-T", other, "http://127.0.0.1:\(s3.serverPort)/\(S3Fixture.bucket)/videos/\(queuedID).mp4"])
        try #require(put.stdout == "200")
        let before = try s3.etag("videos/\(queuedID).mp4")
        box.extraEnvironment["RECORDER_S3_ENDPOINT"] = s3.environment["RECORDER_S3_ENDPOINT"]
        // Queued for the endpoint that was down: sent to the live one only once retargeted.
        #expect(try box.recorder(["outbox", "retarget", "--all"]).status == 0)
        let flush = try box.recorder(["outbox", "flush", "--json"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let id = try #require(try jsonObject(flush.stdout)["id"] as? String)
        #expect(id != queuedID, "the name taken in the store is not overwritten: the post gets another")
        #expect(try s3.etag("videos/\(queuedID).mp4") == before)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
    }

    @Test func missingBucketAndDeadEndpointAreReportedAndQueued() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3, ["RECORDER_S3_BUCKET": "no-such-bucket"])
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let missing = try box.recorder(["post", "--caption", "x", "--json"])
        #expect(queued(missing) == Failed(78, "misconfigured", "PostFailure.notUploaded"), "\(missing.stdout) \(missing.stderr)")
        #expect(box.queued().count == 1)
        let stillMissing = try box.recorder(["outbox", "flush", "--json"])
        #expect(failed(stillMissing) == Failed(78, "misconfigured", "CLIFailure.stillQueued"), "\(stillMissing.stderr)")

        box.extraEnvironment["RECORDER_S3_BUCKET"] = S3Fixture.bucket
        box.extraEnvironment["RECORDER_S3_ENDPOINT"] = "http://127.0.0.1:\(try S3Fixture.freePort())"
        // With the bucket fixed, the post still names the missing one until retargeted.
        let unsent = try box.recorder(["outbox", "flush", "--attempts", "2", "--json"])
        // Nothing uploaded: the one line says the post was left for its own store.
        let left = try unsent.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(unsent.status == 0 && left.count == 1 && left.first?["status"] as? String == "elsewhere"
                && (left.first?["destination"] as? [String: Any])?["bucket"] as? String == "no-such-bucket", "\(unsent.stdout) \(unsent.stderr)")
        let listing = try box.recorder(["outbox", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]], "\(listing.stdout)")
        #expect(rows.count == 1 && (rows.first?["destination"] as? [String: Any])?["bucket"] as? String == "no-such-bucket", "\(rows)")
        let retarget = try box.recorder(["outbox", "retarget", "--all", "--json"])
        #expect(retarget.status == 0, "\(retarget.stdout) \(retarget.stderr)")
        #expect((try jsonObject(retarget.stdout)["previous"] as? [String: Any])?["bucket"] as? String == "no-such-bucket", "\(retarget.stdout)")
        let dead = try box.recorder(["outbox", "flush", "--attempts", "2", "--json"])
        #expect(failed(dead) == Failed(75, "busy", "CLIFailure.stillQueued"), "\(dead.stderr)")
        #expect(box.queued().count == 1)

        box.extraEnvironment["RECORDER_S3_ENDPOINT"] = s3.environment["RECORDER_S3_ENDPOINT"]
        #expect(try box.recorder(["outbox", "retarget", "--all"]).status == 0)
        let flush = try box.recorder(["outbox", "flush", "--json"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let id = try #require(try jsonObject(flush.stdout)["id"] as? String)
        _ = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
    }

    /// How many 5 MiB parts the current shot's video makes.
    private func partCount(_ box: PostSandbox) throws -> Int {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: box.currentVideo)[.size] as? Int)
        return (size + (5 << 20) - 1) / (5 << 20)
    }

    /// Starts `recorder post` through a throttled proxy and returns once the store has acknowledged a part.
    private func startSlowPost(_ s3: S3Fixture, _ box: PostSandbox, _ arguments: [String]) throws -> RunningProcess {
        try s3.faults([["match": "", "action": "throttle", "rate": 2_000_000, "count": 1_000_000]])
        let post = try box.start(["post"] + arguments)
        try waitFor("a part to be acknowledged") { try journaledParts(box) >= 1 }
        return post
    }

    /// Kills `recorder post` with SIGKILL in the middle of a multipart upload, then lifts the throttle.
    private func killMidMultipart(_ s3: S3Fixture, _ box: PostSandbox, caption: String) throws {
        let post = try startSlowPost(s3, box, ["--caption", caption, "--attempts", "5"])
        kill(post.process.processIdentifier, SIGKILL)
        _ = try Tools.finish(post)
        try s3.faults([])
    }

    private func journaledParts(_ box: PostSandbox) throws -> Int { try journaledPartNumbers(box).count }

    /// The part numbers the queued post's upload journal records as acknowledged.
    private func journaledPartNumbers(_ box: PostSandbox) throws -> Set<Int> {
        for item in box.queued() {
            let path = "\(box.outbox)/queue/\(item)/upload.json"
            guard let data = FileManager.default.contents(atPath: path),
                  let journal = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            return Set(((journal["parts"] as? [[String: Any]]) ?? []).compactMap { $0["number"] as? Int })
        }
        return []
    }

    private func waitFor(_ what: String, seconds: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(50_000)
        }
        Issue.record("timed out waiting for \(what)")
        throw CancellationError()
    }
}
