import Foundation
import Testing
@testable import Settings
@testable import Publishing
import StorageUpload
import Failures
import SystemSupport
import Posting
import StoreValues

/// The feed and the video cache against SeaweedFS.
@Suite(.serialized) struct S3FeedTests: S3Suite {
    private func backend(_ s3: S3Fixture, prefix: String = "", throughProxy: Bool = true) throws -> S3Backend {
        try S3Backend(S3Configuration(
            endpoint: "http://127.0.0.1:\(throughProxy ? s3.proxyPort : s3.serverPort)", region: "us-east-1", bucket: S3Fixture.bucket,
            prefix: prefix, credentials: S3Credentials(accessKeyID: S3Fixture.access, secretAccessKey: S3Fixture.secret, source: "the test")))
    }

    @Test func feedPagesThroughMoreKeysThanOneListingHolds() throws {
        let s3 = try S3Fixture()
        let store = try backend(s3)
        // 1,050 cheap index objects (no videos, no metadata), written straight to the server.
        let newest = RFC3339.date(RFC3339.string(Date()))!
        let ids = try StoreSeeder(store: try backend(s3, throughProxy: false)).posts(1050, newest: newest, indexOnly: true)
        // The server's own listing stops at 1,000 keys: more than one ListObjectsV2 page exists.
        #expect(try s3.keys(prefix: "feed/").count == 1000)

        let feed = PostFeed(store: store)
        let first = try feed.page(1, size: 10)
        #expect(first.entries.map(\.id) == Array(ids[0..<10]))
        #expect(first.entries.allSatisfy { $0.problem == .metadataMissing(key: PostMetadata.metadataKey(id: $0.id)) })

        s3.clearRequests()
        let deep = try feed.page(101, size: 10)
        #expect(deep.entries.map(\.id) == Array(ids[1000..<1010]))
        // Skipping 1,000 keys is one listing, the page another: O(page), not the whole bucket.
        let listings = s3.requests().filter { $0.query["list-type"] == "2" }
        #expect(listings.count == 2, "\(listings)")
        #expect(try feed.page(105, size: 10).entries.map(\.id) == Array(ids[1040..<1050]))
        #expect(try feed.page(105, size: 10).next == nil)
        #expect(try feed.page(2, size: 1000).entries.map(\.id) == Array(ids[1000..<1050]))

        // A cursor across the 1,000-key boundary needs the cursor post's metadata.
        let seeder = StoreSeeder(store: store)
        let anchor = ids[995]
        let created = newest.addingTimeInterval(-995)
        try store.write(Array(try seeder.metadata(id: anchor, caption: "anchor", created: created).jsonData()),
                        key: PostMetadata.metadataKey(id: anchor), contentType: "application/json")
        let across = try feed.page(after: anchor, size: 10)
        #expect(across.entries.map(\.id) == Array(ids[996..<1006]))
    }

    /// A host's Download all reads a post a few MiB at a time, and an object larger than an S3
    /// answer's XML is read whole: every byte comes back (an answer's body was kept to 1 MiB).
    @Test func aRangeOrAnObjectOfSeveralMebibytesComesBackWhole() throws {
        let s3 = try S3Fixture()
        let store = try backend(s3, throughProxy: false)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(5 << 20) + 123).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try store.write(bytes, key: "videos/BIGREAD001.mp4", contentType: "video/mp4")
        #expect(try store.read(key: "videos/BIGREAD001.mp4", range: 100...(4 << 20) + 99) == Array(bytes[100..<(4 << 20) + 100]))
        #expect(try store.read(key: "videos/BIGREAD001.mp4", limit: 6 << 20) == bytes)
        #expect(throws: StorageError.self) { try store.read(key: "videos/BIGREAD001.mp4", limit: 5 << 20) }
    }

    @Test func presignedLinksWorkWithNoCredentialsAndNothingElseDoes() throws {
        let s3 = try S3Fixture()
        // Straight to the server: the Host a client sends is what the link signs.
        let store = try backend(s3, prefix: "booth-3/", throughProxy: false)
        let bytes = Array("the guest's video, byte for byte \(UUID().uuidString)".utf8)
        try store.write(bytes, key: "videos/SHARE00001.mp4", contentType: "video/mp4")
        let presigner = S3Presigner(store.configuration)
        func fetch(_ url: String) throws -> (status: String, body: String) {
            let out = try Tools.run("curl", ["-sS", "-o", "-", "-w", "\n%{http_code}", url])
            let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
        }
        let link = try presigner.url(forKey: "videos/SHARE00001.mp4", expiresSeconds: 3600)
        let good = try fetch(link)
        #expect(good.status == "200" && good.body == String(decoding: bytes, as: UTF8.self), "\(good)")

        // One byte of the signature changed.
        var tampered = link
        let last = tampered.removeLast()
        tampered.append(last == "0" ? "1" : "0")
        #expect(try fetch(tampered).status == "403")
        // Signed with a wrong secret.
        var wrong = store.configuration
        wrong.credentials = S3Credentials(accessKeyID: S3Fixture.access, secretAccessKey: "not-the-secret", source: "test")
        #expect(try fetch(try S3Presigner(wrong).url(forKey: "videos/SHARE00001.mp4", expiresSeconds: 3600)).status == "403")
        // Expired: a link that lived 1 s, made 5 s ago.
        let expired = try presigner.url(forKey: "videos/SHARE00001.mp4", expiresSeconds: 1, at: Date().addingTimeInterval(-5))
        #expect(try fetch(expired).status == "403")
        // It opens that one object only: another key under the same signature is refused.
        try store.write(Array("another".utf8), key: "videos/OTHER00001.mp4", contentType: "video/mp4")
        #expect(try fetch(link.replacingOccurrences(of: "SHARE00001", with: "OTHER00001")).status == "403")
    }

    @Test func aPostGivesAShareLinkThatOpensItsVideoWithNoCredentials() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, ["RECORDER_SHARE_EXPIRES_HOURS": "2"])
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let posted = try box.recorder(["post", "--caption", "share me", "--json"])
        let id = try postedID(posted)
        let answer = try jsonObject(posted.stdout)
        let link = try #require(answer["shareURL"] as? String, "\(answer)")
        #expect(link.contains("/videos/\(id).mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&") && link.contains("X-Amz-Expires=7200"))
        let expires = try #require((answer["shareExpiresAt"] as? String).flatMap(RFC3339.date))
        #expect(abs(expires.timeIntervalSinceNow - 7200) < 120)
        // curl with no credentials at all gets exactly the posted video.
        let file = "\(box.root)/shared.mp4"
        let got = try Tools.run("curl", ["-sS", "-o", file, "-w", "%{http_code}", link])
        #expect(got.stdout == "200", "\(got.stdout) \(got.stderr)")
        #expect(try sha256(of: file) == shotSHA)
        // The metadata in the store and the feed carry the same link.
        let metadata = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(metadata["shareURL"] as? String == link)
        let feed = try jsonObject(try box.recorder(["feed", "--json"]).stdout)
        #expect((feed["entries"] as? [[String: Any]])?.first?["shareURL"] as? String == link)

        // share.base_url (a public bucket or a CDN): the template, filled in, and no expiry.
        let cdn = try sandbox(s3, ["RECORDER_SHARE_BASE_URL": "https://cdn.example.com/{key}?post={id}"])
        defer { cdn.remove() }
        _ = try cdn.shoot()
        let public_ = try cdn.recorder(["post", "--caption", "cdn", "--json"])
        let publicID = try postedID(public_)
        let publicAnswer = try jsonObject(public_.stdout)
        #expect(publicAnswer["shareURL"] as? String == "https://cdn.example.com/videos/\(publicID).mp4?post=\(publicID)")
        #expect(publicAnswer["shareExpiresAt"] == nil)
        // A template that names no post is refused before anything is queued.
        let bad = try sandbox(s3, ["RECORDER_SHARE_BASE_URL": "https://cdn.example.com/"])
        defer { bad.remove() }
        _ = try bad.shoot()
        let refused = try bad.recorder(["post", "--caption", "bad", "--json"])
        #expect(failed(refused) == Failed(78, "misconfigured", "ConfigurationProblem.badShareTemplate"), "\(refused.stderr)")
        #expect(try jsonObject(refused.stdout)["location"] as? String == "RECORDER_SHARE_BASE_URL", "\(refused.stdout)")
        // (nothing queued: the outbox has no post in it)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: bad.outbox)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func postersGoUpBesideTheirVideosAndReindexMakesTheMissingOnes() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let id = try postedID(try box.recorder(["post", "--caption", "poster", "--json"]))
        // The poster is on the server beside the video: a JPEG (ffprobe) at most 640 wide.
        func poster() throws -> [String: Any] {
            let file = "\(box.root)/poster.jpg"
            try? FileManager.default.removeItem(atPath: file)
            #expect(try s3.get("thumbs/\(id).jpg", to: file) == 200)
            let probe = try Tools.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "json", file])
            let streams = try jsonObject(probe.stdout.replacingOccurrences(of: "\n", with: ""))["streams"] as? [[String: Any]]
            return try #require(streams?.first, "\(probe.stdout) \(probe.stderr)")
        }
        let picture = try poster()
        #expect(picture["codec_name"] as? String == "mjpeg")
        #expect(((picture["width"] as? Int) ?? 0) > 0 && ((picture["width"] as? Int) ?? 999) <= 640, "\(picture)")
        let metadata = try fetch(s3, id: id, shotSHA: shotSHA, in: box)
        #expect(metadata["thumbnailKey"] as? String == "thumbs/\(id).jpg")
        #expect((metadata["thumbnailURL"] as? String)?.hasSuffix("/thumbs/\(id).jpg") == true)
        let feed = try jsonObject(try box.recorder(["feed", "--json"]).stdout)
        #expect((feed["entries"] as? [[String: Any]])?.first?["thumbnailKey"] as? String == "thumbs/\(id).jpg")

        // A post from before posters: its poster gone and its metadata naming none. --reindex makes it again.
        let store = try backend(s3)
        var old = try PostFeed(store: store).metadata(id: id)
        (old.thumbnailKey, old.thumbnailURL) = (nil, nil)
        try store.write(Array(try old.jsonData()), key: old.metadataKey, contentType: "application/json")
        try store.delete(key: "thumbs/\(id).jpg")
        let reindexed = try box.recorder(["feed", "--reindex", "--json"])
        let made = try jsonObject(reindexed.stdout.replacingOccurrences(of: "\n", with: ""))["posters"] as? Int
        #expect(reindexed.status == 0 && made == 1, "\(reindexed.stdout) \(reindexed.stderr)")
        #expect(try poster()["codec_name"] as? String == "mjpeg")
        #expect(try PostFeed(store: store).metadata(id: id).thumbnailKey == "thumbs/\(id).jpg")
        // Nothing left to make the second time.
        let again = try jsonObject(try box.recorder(["feed", "--reindex", "--json"]).stdout.replacingOccurrences(of: "\n", with: ""))["posters"] as? Int
        #expect(again == 0)
        // Deleting the post deletes its poster too.
        try PostFeed(store: store).delete(id: id)
        #expect(try s3.keys(prefix: "thumbs/").isEmpty)
    }

    @Test func expiredPostsArePurgedFromARealStoreOnlyWithYes() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        func post(_ caption: String) throws -> String {
            #expect(try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.3", "--size", "160x120"]).status == 0)
            return try postedID(try box.recorder(["post", "--caption", caption, "--json"]))
        }
        let old = [try post("first"), try post("second")]
        // Six seconds between the old posts and the one kept: the cutoff goes half-way.
        Thread.sleep(forTimeInterval: 6)
        let kept = try post("kept")
        func created(_ id: String) throws -> Date {
            let entries = try #require(try jsonObject(try box.recorder(["feed", "--json"]).stdout)["entries"] as? [[String: Any]])
            return try #require(entries.first { $0["id"] as? String == id }.flatMap { ($0["createdAt"] as? String).flatMap(RFC3339.date) })
        }
        let border = try created(old[1]).addingTimeInterval(try created(kept).timeIntervalSince(try created(old[1])) / 2)
        // retention.days that puts the cutoff at the border when the command runs.
        func retention() -> [String] { ["--set", "retention.days=\(Date().timeIntervalSince(border) / 86_400)"] }
        func keys(of id: String) throws -> [String] { try s3.keys(prefix: "").filter { $0.contains(id) } }

        let unset = try box.recorder(["feed", "--purge-expired", "--json"])
        #expect(failed(unset) == Failed(78, "misconfigured", "CLIFailure.purgeNeedsRetention"), "\(unset.stderr)")
        let dry = try jsonObject(try box.recorder(["feed", "--purge-expired", "--json"] + retention()).stdout)
        #expect(Set((dry["expired"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }) == Set(old), "\(dry)")
        #expect(dry["deleted"] as? Int == 0 && dry["dryRun"] as? Bool == true)
        for id in old + [kept] {
            let held = try keys(of: id)
            #expect(held.count == 4, "\(id) lost objects in a dry run: \(held)")
        }

        let done = try box.recorder(["feed", "--purge-expired", "--yes", "--json"] + retention())
        let purged = try jsonObject(done.stdout)
        #expect(done.status == 0 && purged["deleted"] as? Int == 2 && (purged["expired"] as? [Any])?.count == 2, "\(done.stdout) \(done.stderr)")
        // What the bucket holds, as the server itself lists it.
        for id in old {
            let left = try keys(of: id)
            #expect(left.isEmpty, "\(id): \(left)")
        }
        #expect(try keys(of: kept).count == 4)
        // The feed says when the kept post expires.
        let entries = try #require(try jsonObject(try box.recorder(["feed", "--json"] + retention()).stdout)["entries"] as? [[String: Any]])
        #expect(entries.compactMap { $0["id"] as? String } == [kept])
        let text = try #require(entries.first?["expiresAt"] as? String)
        let expires = try #require(RFC3339.date(text))
        // created + retention, the retention being (now - border) when the command ran.
        let expected = try created(kept).addingTimeInterval(Date().timeIntervalSince(border))
        #expect(abs(expires.timeIntervalSince(expected)) < 30, "\(text)")
    }

    // Issue 40 item 7: two kiosks share a bucket; each deletes only its own expired posts (one set
    // to a day emptied the other's before), posts from before kiosks had ids stay until a kiosk
    // with retention.scope = store deletes them, and a clock behind the store deletes nothing.
    @Test func kiosksSharingAStoreEachPurgeOnlyTheirOwn() throws {
        let s3 = try S3Fixture()
        let boothA = try sandbox(s3, ["RECORDER_KIOSK_ID": "booth-a", "RECORDER_RETENTION_DAYS": "1"])
        let boothB = try sandbox(s3, ["RECORDER_KIOSK_ID": "booth-b", "RECORDER_RETENTION_DAYS": "1"])
        defer { boothA.remove(); boothB.remove() }
        func post(_ box: PostSandbox) throws -> String {
            #expect(try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.3", "--size", "160x120"]).status == 0)
            return try postedID(try box.recorder(["post", "--caption", "today", "--json"]))
        }
        let newA = try post(boothA), newB = try post(boothB)
        // Each post's index key names the kiosk that sent it, as the server lists them.
        let feed = try s3.keys(prefix: "feed/")
        #expect(feed.contains { $0.hasSuffix("-\(newA)-booth-a.json") } && feed.contains { $0.hasSuffix("-\(newB)-booth-b.json") }, "\(feed)")
        // Three days old: one of each kiosk's, and one from before kiosks had ids.
        let seeder = StoreSeeder(store: try backend(s3, throughProxy: false))
        let old = Date().addingTimeInterval(-3 * 86_400)
        for (id, kiosk) in [("OLDBOOTHA0", "booth-a"), ("OLDBOOTHB0", "booth-b"), ("OLDLEGACY0", nil)] as [(String, String?)] {
            var metadata = seeder.metadata(id: id, caption: "old", created: old, video: Array(id.utf8))
            metadata.kiosk = kiosk
            try seeder.post(metadata, video: Array(id.utf8))
        }
        func keys(of id: String) throws -> [String] { try s3.keys(prefix: "").filter { $0.contains(id) } }

        let a = try boothA.recorder(["feed", "--purge-expired", "--yes", "--json"])
        let byA = try jsonObject(a.stdout)
        #expect(a.status == 0 && byA["deleted"] as? Int == 1 && (byA["expired"] as? [Any])?.count == 1
                && byA["otherKiosks"] as? Int == 1 && byA["withoutKiosk"] as? Int == 1, "\(a.status) \(a.stdout) \(a.stderr)")
        #expect(try keys(of: "OLDBOOTHA0").isEmpty)
        for id in ["OLDBOOTHB0", "OLDLEGACY0", newA, newB] { #expect(try keys(of: id).count >= 3, "\(id) was deleted by booth-a") }
        // Booth B looks after the store: every expired post, the old one without an id too.
        let b = try boothB.recorder(["feed", "--purge-expired", "--yes", "--set", "retention.scope=store", "--json"])
        let byB = try jsonObject(b.stdout)
        #expect(b.status == 0 && byB["deleted"] as? Int == 2 && (byB["expired"] as? [Any])?.count == 2, "\(b.status) \(b.stdout) \(b.stderr)")
        for id in ["OLDBOOTHB0", "OLDLEGACY0"] { #expect(try keys(of: id).isEmpty, "\(id)") }
        for id in [newA, newB] { #expect(try keys(of: id).count >= 3, "\(id)") }

        // A post made "tomorrow" by a kiosk whose clock runs ahead (or this one's is behind):
        // booth A deletes nothing, exits 75 and says why.
        var ahead = seeder.metadata(id: "AHEADOFUS0", caption: "tomorrow", created: Date().addingTimeInterval(86_400))
        ahead.kiosk = "booth-b"
        try seeder.post(ahead)
        var stale = seeder.metadata(id: "OLDBOOTHA1", caption: "old", created: old)
        stale.kiosk = "booth-a"
        try seeder.post(stale)
        let doubted = try boothA.recorder(["feed", "--purge-expired", "--yes", "--json"])
        #expect(failed(doubted) == Failed(75, "busy", "CLIFailure.clockInDoubt"), "\(doubted.stderr)")
        // The post that is ahead is named.
        let doubt = failureData(doubted)["value"] as? [String: Any]
        #expect(doubt?["case"] as? String == "behindNewestPost" && doubt?["id"] as? String == "AHEADOFUS0", "\(doubted.stdout)")
        #expect(try keys(of: "OLDBOOTHA1").count == 2, "deleted by a clock in doubt")
    }

    @Test func moderationHidesShowsAndDeletesOnARealStore() throws {
        let s3 = try S3Fixture()
        let store = try backend(s3, prefix: "booth-2/")
        let seeder = StoreSeeder(store: store)
        let now = RFC3339.date(RFC3339.string(Date()))!
        let ids = (0..<3).map { StoreSeeder.id($0) }
        for (i, id) in ids.enumerated() {
            try seeder.post(seeder.metadata(id: id, caption: "post \(i)", created: now.addingTimeInterval(-Double(i)), video: Array("video \(i)".utf8)),
                            video: Array("video \(i)".utf8))
        }
        let feed = PostFeed(store: store)
        try feed.hide(id: ids[1])
        #expect(try feed.page(1, size: 10).entries.map(\.id) == [ids[0], ids[2]])
        #expect(try feed.hiddenPosts(size: 10).map(\.id) == [ids[1]])
        #expect(try s3.keys(prefix: "booth-2/feed-hidden/").count == 1)
        #expect(try feed.reindex(poster: Posters.jpeg).added == 0)
        try feed.show(id: ids[1])
        #expect(try feed.page(1, size: 10).entries.map(\.id) == ids)
        #expect(try s3.keys(prefix: "booth-2/feed-hidden/").isEmpty)

        try feed.delete(id: ids[0])
        #expect(try feed.page(1, size: 10).entries.map(\.id) == [ids[1], ids[2]])
        // Gone from the server itself: no index object, video or metadata left.
        #expect(try s3.keys(prefix: "booth-2/").filter { $0.contains(ids[0]) }.isEmpty)
        #expect { try feed.delete(id: ids[0]) } throws: { ($0 as? RecorderError)?.kind == .notFound }
    }

    @Test func postedVideosAreListedAndFetchedThroughTheCache() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3, ["RECORDER_S3_PREFIX": "booth-1/", "XDG_CACHE_HOME": "\(try Tools.tempDirectory())"])
        defer { box.remove() }
        var posted: [(id: String, sha: String)] = []
        for caption in ["first", "second ✨\nmore"] {
            let sha = try box.shoot()
            let result = try box.recorder(["post", "--caption", caption, "--json"])
            posted.append((try postedID(result), sha))
            sleep(1)  // distinct creation seconds: newest first is then certain
        }
        let listed = try box.recorder(["feed", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let page = try #require(try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "not JSON: \(listed.stdout) \(listed.stderr)")
        let entries = try #require(page["entries"] as? [[String: Any]])
        #expect(entries.map { $0["id"] as? String } == [posted[1].id, posted[0].id])
        #expect(entries.first?["caption"] as? String == "second ✨")
        #expect(try s3.keys(prefix: "booth-1/feed/").count == 2)

        s3.clearRequests()
        let fetched = try box.recorder(["fetch", posted[1].id, "--json"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let answer = try jsonObject(fetched.stdout)
        #expect(answer["from"] as? String == "store")
        let path = try #require(answer["path"] as? String)
        #expect(try sha256(of: path) == posted[1].sha)
        #expect(try Probe.decodesCleanly(path))
        #expect(s3.requests().filter { $0.method == "GET" && $0.path.hasPrefix("/clips/booth-1/videos/") }.count == 1)

        s3.clearRequests()
        let again = try box.recorder(["fetch", posted[1].id, "--json", "--output", "\(box.root)/copy.mp4"])
        #expect(try jsonObject(again.stdout)["from"] as? String == "disk")
        #expect(s3.requests().filter { $0.method == "GET" && $0.path.hasPrefix("/clips/booth-1/videos/") }.isEmpty)
        #expect(try sha256(of: "\(box.root)/copy.mp4") == posted[1].sha)

        // A cached copy cut short is fetched again, and the answer says why.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, 1000) == 0)
        let replaced = try jsonObject(try box.recorder(["fetch", posted[1].id, "--json"]).stdout)
        #expect(try replaced["from"] as? String == "store" && sha256(of: path) == posted[1].sha)
        let why = replaced["replaced"] as? [String: Any]
        #expect(why?["case"] as? String == "wrongSize" && why?["size"] as? Int == 1000 && why?["expected"] as? Int == size, "\(replaced)")

        // The store failing: the same statuses as `post`.
        try s3.faults([["match": "GET", "action": "respond", "status": 503,
                        "body": "<Error><Code>ServiceUnavailable</Code><Message>down for the test</Message></Error>", "count": 1000]])
        let failing = try box.recorder(["feed", "--set", "retry.max_seconds=0", "--json"])
        let cannotList = failed(failing)
        #expect([Failed(75, "busy", "FeedFailure.cannotList"), Failed(69, "unavailable", "FeedFailure.cannotList")].contains(cannotList), "\(failing.stderr)")
        try s3.faults([])
    }
}
