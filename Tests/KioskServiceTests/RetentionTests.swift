import Foundation
import HTTPTypes
import Hummingbird
@testable import KioskService
@testable import KioskWords
@testable import Settings
@testable import Publishing
import StorageUpload
import Testing
@testable import Library
@testable import Shooting
@testable import KioskHTTP
@testable import KioskState
import Failures
import SystemSupport
import Posting

/// Posts older than `retention.days` leave the store (the kiosk's timer), a purge cut short is
/// finished by the next, and no share link outlives its post.
struct RetentionTests {
    /// A post created `age` seconds ago (negative: from a clock ahead), by kiosk `kiosk` (nil: from
    /// before kiosks had ids), with a share token, in `store`'s feed (or hidden).
    static func post(_ id: String, age: Double, hidden: Bool = false, kiosk: String? = "booth-a", in store: LocalDirectoryBackend) throws -> String {
        let video = Array("stand-in video \(id)".utf8)
        var metadata = try PostMetadata.decode(Data(#"{"id":"x","video":"x.mp4","key":"k","metadataKey":"m","url":"u","ext":"mp4","width":1,"height":1,"durationSeconds":2,"frameRate":15,"codec":"h264","byteSize":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","caption":"c","author":{"id":"a","name":"A"},"createdAt":"2026-01-01T00:00:00Z","camera":"c","likeCount":0,"shareCount":0,"commentCount":0}"#.utf8))
        metadata.rename(to: id, url: store.url(forKey: PostMetadata.videoKey(id: id)))
        metadata.byteSize = Int64(video.count)
        metadata.sha256 = FileDigest.sha256(video)
        metadata.createdAt = RFC3339.string(Date().addingTimeInterval(-age))
        metadata.shareToken = ShareToken.random()
        metadata.kiosk = kiosk
        // What the store says of the link is not believed past the post's end.
        metadata.shareExpiresAt = RFC3339.string(Date().addingTimeInterval(30 * 86_400))
        try store.write(video, key: metadata.key, contentType: "video/mp4")
        try store.write(Array("jpeg".utf8), key: PostMetadata.thumbnailKey(id: id), contentType: "image/jpeg")
        try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
        let feed = PostFeed(store: store)
        try feed.index(metadata)
        if hidden { try feed.hide(id: id) }
        return metadata.shareToken!
    }

    static func keys(of id: String, in store: LocalDirectoryBackend) throws -> [String] {
        var keys: [String] = []
        for prefix in ["videos/", "thumbs/", "posts/", PostFeed.folder, PostFeed.hiddenFolder] {
            keys += try store.list(prefix: prefix, startAfter: nil, maxKeys: 1000).entries.map(\.key).filter { $0.contains(id) }
        }
        return keys
    }

    @Test func expiredPostsLeaveTheStoreAndACutPurgeIsFinished() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token, more: ["kiosk.id": "booth-a"])
        defer { fixture.remove() }
        await fixture.start()
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        let day = 86_400.0
        let new = try Self.post("RETAINNEW0", age: 60, in: store)
        _ = try Self.post("RETAINTWO0", age: 2 * day, in: store)
        let old = try Self.post("RETAINOLD0", age: 10 * day, in: store)
        _ = try Self.post("RETAINHID0", age: 11 * day, hidden: true, in: store)
        _ = try Self.post("RETAINCUT0", age: 12 * day, in: store)
        let feed = PostFeed(store: store)
        let retention = Retention(days: 7)

        #expect(try feed.expiredPosts(before: retention.cutoff(at: Date())).map(\.id) == ["RETAINOLD0", "RETAINHID0", "RETAINCUT0"])
        // A dry run deletes nothing.
        let dry = try feed.purgeExpired(before: retention.cutoff(at: Date()), scope: .own("booth-a"), dryRun: true)
        #expect(dry.expired.count == 3 && dry.deleted == 0 && dry.dryRun)
        #expect(try Self.keys(of: "RETAINOLD0", in: store).count == 4)
        // A purge that was cut short after the video and the metadata: only the index object is left.
        try store.delete(key: PostMetadata.videoKey(id: "RETAINCUT0"))
        try store.delete(key: PostMetadata.metadataKey(id: "RETAINCUT0"))

        try await fixture.application().test(.router) { client in
            // Played, so the cache holds it (no retention in this kiosk's settings: its link opens).
            try await client.execute(uri: "/s/\(old)/video.mp4", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/s/\(new)", method: .get) { #expect($0.status == .ok) }
        }
        await fixture.kiosk.retention.purge(retention)
        for id in ["RETAINOLD0", "RETAINHID0", "RETAINCUT0"] {
            let left = try Self.keys(of: id, in: store)
            #expect(left.isEmpty, "\(id): \(left)")
        }
        for id in ["RETAINNEW0", "RETAINTWO0"] { #expect(try Self.keys(of: id, in: store).count == 4, "\(id)") }
        #expect(metricValues(fixture.kiosk.metrics.text())["recorder_posts_expired_total"] == 3)
        #expect(fixture.kiosk.library.cache.entries().isEmpty, "the expired post is still in the cache")
        // Nothing left to do: the next purge finds nothing.
        #expect(try feed.expiredPosts(before: retention.cutoff(at: Date())).isEmpty)
    }

    // Item 7: two kiosks share a store; each deletes only its own expired posts (a kiosk set to a
    // day emptied its neighbours' before), and posts from before kiosks had ids stay readable and
    // are deleted only under retention.scope = store.
    @Test func aKioskPurgesOnlyItsOwnPostsUnlessItsScopeIsTheStore() async throws {
        let a = try KioskFixture(token: AdminAPITests.token, more: ["kiosk.id": "booth-a", "retention.days": "1"])
        defer { a.remove() }
        let shared = a.directory + "/store"
        let b = try KioskFixture(token: AdminAPITests.token, more: ["kiosk.id": "booth-b", "retention.days": "1", "local.path": shared,
                                                                     "retention.scope": "store"])
        defer { b.remove() }
        await a.start()
        await b.start()
        let store = LocalDirectoryBackend(root: shared)
        let day = 86_400.0
        _ = try Self.post("OWNOLDPST0", age: 3 * day, kiosk: "booth-a", in: store)
        _ = try Self.post("OWNNEWPST0", age: 60, kiosk: "booth-a", in: store)
        _ = try Self.post("NEIGHBOUR0", age: 3 * day, kiosk: "booth-b", in: store)
        _ = try Self.post("LEGACYPST0", age: 3 * day, kiosk: nil, in: store)
        let legacy = try Self.post("LEGACYNEW0", age: 60, kiosk: nil, in: store)
        #expect(try Self.keys(of: "OWNOLDPST0", in: store).contains(PostFeed.folder + PostFeed.timeDigits(RFC3339.date(try PostFeed(store: store).metadata(id: "OWNOLDPST0").createdAt)!.timeIntervalSince1970) + "-OWNOLDPST0-booth-a.json"))
        // An old post (its index key has no kiosk id) is listed and opens as before.
        try await a.application().test(.router) { client in
            try await client.execute(uri: "/api/feed", method: .get, headers: AdminAPITests.authorized) { response in
                let ids = (object(response)["posts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                #expect(Set(ids) == ["OWNOLDPST0", "OWNNEWPST0", "NEIGHBOUR0", "LEGACYPST0", "LEGACYNEW0"], "\(ids)")
            }
            try await client.execute(uri: "/s/\(legacy)", method: .get) { #expect($0.status == .ok) }
        }
        await a.kiosk.retention.purge(try #require(a.kiosk.library.share.retention))
        #expect(try Self.keys(of: "OWNOLDPST0", in: store).isEmpty)
        for id in ["OWNNEWPST0", "NEIGHBOUR0", "LEGACYPST0"] { #expect(try Self.keys(of: id, in: store).count == 4, "\(id) was deleted by booth-a") }
        let outcome = try #require(await a.kiosk.overview.overview().retention)
        #expect(outcome.scope == "own" && outcome.kiosk == "booth-a" && outcome.deleted == 1 && outcome.otherKiosks == 1 && outcome.withoutKiosk == 1 && outcome.refused == nil,
                "\(outcome)")
        #expect(a.kiosk.problems.newestFirst.isEmpty, "nothing to warn of")
        // The kiosk that looks after the store deletes every expired post, old ones included.
        await b.kiosk.retention.purge(try #require(b.kiosk.library.share.retention))
        for id in ["NEIGHBOUR0", "LEGACYPST0"] { #expect(try Self.keys(of: id, in: store).isEmpty, "\(id)") }
        for id in ["OWNNEWPST0", "LEGACYNEW0"] { #expect(try Self.keys(of: id, in: store).count == 4, "\(id)") }
        #expect(try #require(await b.kiosk.overview.overview().retention).deleted == 2)
    }

    // Item 7: a clock in doubt deletes nothing, and says why in the journal and on the operator page.
    @Test func aClockInDoubtDeletesNothingAndSaysWhy() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token, more: ["kiosk.id": "booth-a", "retention.days": "1"])
        defer { fixture.remove() }
        await fixture.start()
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        _ = try Self.post("EXPIRED000", age: 3 * 86_400, in: store)
        let retention = try #require(fixture.kiosk.library.share.retention)
        func refusal(now: Date) async throws -> ClockDoubt? {
            await fixture.kiosk.retention.purge(retention, now: now)
            #expect(try Self.keys(of: "EXPIRED000", in: store).count == 4, "deleted by a clock in doubt")
            let overview = try JSONSerialization.jsonObject(with: HTTPAnswer.jsonEncoder.encode(await fixture.kiosk.overview.overview())) as? [String: Any]
            let shown = overview?["retention"] as? [String: Any]
            #expect((shown?["refusedBecause"] as? String)?.isEmpty == false && shown?["refused"] != nil, "the operator page is told: \(shown ?? [:])")
            return try #require(await fixture.kiosk.overview.overview().retention).refused
        }
        // A box without a real-time clock that started in 2020.
        let lost = Date(timeIntervalSince1970: 1_580_000_000)
        let beforeRelease = ClockDoubt.beforeRelease(now: RFC3339.string(lost), release: RFC3339.string(RecorderVersion.madeAt))
        #expect(try await refusal(now: lost) == beforeRelease)
        // (the journal gives the case's explanation, whatever its words)
        #expect(fixture.kiosk.problems.newestFirst.first?.message.contains(OperatorWords.explanation(beforeRelease)) == true,
                "the journal says why: \(fixture.kiosk.problems.newestFirst.first?.message ?? "")")
        // A clock behind the store's newest post (another kiosk's, made a day "later").
        _ = try Self.post("FUTURE0000", age: -86_400, kiosk: "booth-b", in: store)
        guard case .behindNewestPost(_, _, let id)? = try await refusal(now: Date()) else {
            Issue.record("a clock behind the newest post was believed")
            return
        }
        #expect(id == "FUTURE0000")
        try PostFeed(store: store).delete(id: "FUTURE0000")
        // A time service that says the clock is not synchronised (timedatectl's own words; this
        // machine runs no systemd to say it, so a script stands in for timedatectl).
        let script = fixture.directory + "/timedatectl"
        try "#!/bin/sh\n[ \"$1\" = show ] || exit 2\necho NTP=yes\necho NTPSynchronized=no\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        #expect(try await refusal(now: Date()) == .notSynchronised)
        // Synchronised: the purge goes ahead.
        try "#!/bin/sh\necho NTP=yes\necho NTPSynchronized=yes\n".write(toFile: script, atomically: true, encoding: .utf8)
        await fixture.kiosk.retention.purge(retention)
        #expect(try Self.keys(of: "EXPIRED000", in: store).isEmpty)
        #expect(try #require(await fixture.kiosk.overview.overview().retention).refused == nil)
        // With no time service (NTP=no), or no timedatectl at all, it cannot tell, and does not doubt.
        try "#!/bin/sh\necho NTP=no\necho NTPSynchronized=no\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(TimeSync.synchronised(timedatectl: script) == nil)
        #expect(TimeSync.synchronised(timedatectl: fixture.directory + "/none") == nil)
    }

    @Test func aSharePageClosesWhenItsPostExpiresWhateverTheStoreSays() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token, more: ["retention.days": "1"])
        defer { fixture.remove() }
        await fixture.start()
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        let young = try Self.post("RETAINYNG0", age: 3600, in: store)
        let expired = try Self.post("RETAINEXP0", age: 25 * 3600, in: store)
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/s/\(young)", method: .get) { response in
                #expect(response.status == .ok)
                // The page says the link ends with the post (a day after it was made), not in 30 days.
                let page = String(buffer: response.body)
                let end = try #require(page.firstRange(of: #"datetime=""#).map { page[$0.upperBound...].prefix(20) })
                let seconds = try #require(RFC3339.date(String(end))).timeIntervalSinceNow
                #expect(seconds > 22 * 3600 && seconds < 24 * 3600, "\(end)")
            }
            try await client.execute(uri: "/s/\(expired)", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func linksNeverOutliveTheirPost() {
        // (whole seconds, as RFC 3339 times are stored)
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let links = ShareLinks(baseURL: "https://booth.example.com/s/{token}", expiresSeconds: 7 * 86_400, retention: Retention(days: 1))
        let store = LocalDirectoryBackend(root: "/nonexistent")
        let created = now.addingTimeInterval(-23 * 3600)
        let link = links.link(id: "ABCDEFGHIJ", key: "videos/ABCDEFGHIJ.mp4", token: "T0k3nT0k3nT0k3nT0k3nT0", store: store, at: now,
                              createdAt: RFC3339.string(created))
        #expect(link?.expiresAt == RFC3339.string(created.addingTimeInterval(86_400)), "\(String(describing: link))")
        #expect(links.link(id: "ABCDEFGHIJ", key: "k", token: "T0k3nT0k3nT0k3nT0k3nT0", store: store, at: now,
                           createdAt: RFC3339.string(now.addingTimeInterval(-25 * 3600))) == nil)
        // Without retention: share.expires_hours alone.
        let kept = ShareLinks(baseURL: "https://booth.example.com/s/{token}", expiresSeconds: 7 * 86_400)
        #expect(kept.link(id: "ABCDEFGHIJ", key: "k", token: "T0k3nT0k3nT0k3nT0k3nT0", store: store, at: now,
                          createdAt: RFC3339.string(created))?.expiresAt == RFC3339.string(now.addingTimeInterval(7 * 86_400)))
    }
}

/// `retention.local_days`: this machine's own copies (shots, sent records, cached videos) go when
/// they are older than that; a post still queued for the store never does, and a shot being
/// recorded waits for the next purge.
struct LocalRetentionTests {
    @Test func oldCopiesOnThisMachineGoAndQueuedPostsStay() async throws {
        let fixture = try KioskFixture(seconds: 1, more: ["retention.local_days": "1"])
        defer { fixture.remove() }
        await fixture.start()
        let kiosk = fixture.kiosk
        let local = try #require(kiosk.retention.local)
        // A post that went up (a sent record, its video then played through the cache)...
        _ = try await kiosk.manager.shoot(kiosk.settings.shotRequest())
        let sent = try await kiosk.posting.post(caption: "sent")
        try await fixture.waitForUpload(sent.metadata.id)
        kiosk.drain.stop()
        let metadata = try kiosk.library.feed.metadata(id: sent.metadata.id)
        let cached = try kiosk.library.cache.video(for: metadata, from: kiosk.library.feed.store)
        // ...one still queued (the store is away: a file is in its way), and the current shot.
        _ = try await kiosk.manager.shoot(kiosk.settings.shotRequest())
        let queued = try await kiosk.posting.post(caption: "queued")
        _ = try await kiosk.manager.shoot(kiosk.settings.shotRequest())
        let current = try #require(kiosk.settings.workspace.currentShot())
        let receipts = fixture.directory + "/outbox/sent"

        // Today nothing is old.
        let today = local.purge(workspace: kiosk.settings.workspace, outbox: kiosk.drain.outbox, cache: kiosk.library.cache, dryRun: true)
        #expect(today.count == 0, "\(today)")
        // Two days on, as a dry run: named, nothing deleted.
        let later = Date().addingTimeInterval(2 * 86_400)
        let dry = local.purge(workspace: kiosk.settings.workspace, outbox: kiosk.drain.outbox, cache: kiosk.library.cache, now: later, dryRun: true)
        #expect(dry.shots == [current.id] && dry.sentRecords == [sent.metadata.id] && dry.cachedVideos.count == 1, "\(dry)")
        #expect(FileManager.default.fileExists(atPath: current.videoPath) && FileManager.default.fileExists(atPath: cached.path))

        // While a shot is being recorded the kiosk's purge waits. (A long shot, stopped once the
        // purge has run: with 3 s, a loaded CI machine's poll saw it only once it had ended.)
        try await kiosk.manager.begin(kiosk.settings.shotRequest(seconds: 60), countdown: 0)
        try await fixture.waitFor("recording")
        await kiosk.retention.purge(local, now: later)
        #expect(FileManager.default.fileExists(atPath: "\(receipts)/\(sent.metadata.id).json"), "nothing went while recording")
        #expect(await kiosk.manager.stop())
        await kiosk.manager.waitForShot()
        let newest = try #require(kiosk.settings.workspace.currentShot())

        // Then it deletes: the shot (now the one just recorded), the sent record, the cached video.
        await kiosk.retention.purge(local, now: later)
        #expect(kiosk.settings.workspace.currentShot() == nil)
        #expect(!FileManager.default.fileExists(atPath: newest.videoPath))
        #expect(!FileManager.default.fileExists(atPath: "\(receipts)/\(sent.metadata.id).json"))
        #expect(!FileManager.default.fileExists(atPath: cached.path))
        // The queued post is whole, and the post in the store is untouched (that is retention.days).
        #expect(kiosk.drain.outbox.items().map(\.metadata.id) == [queued.metadata.id])
        #expect(FileManager.default.fileExists(atPath: queued.videoPath))
        #expect(FileManager.default.fileExists(atPath: fixture.directory + "/store/videos/\(sent.metadata.id).mp4"))
        #expect(metricValues(kiosk.metrics.text())["recorder_local_copies_expired_total"] == 3, "\(kiosk.metrics.text())")
    }
}

/// A retention pass with no expired shot never holds the current shot: a guest's Delete or Post
/// at the same moment is not refused as "posting now".
@Suite struct RetentionHoldTests {
    @Test func aPassWithNoExpiredShotRunsWhileAGuestHoldsTheShot() async throws {
        let fixture = try KioskFixture(seconds: 1, more: ["retention.local_days": "1"])
        defer { fixture.remove() }
        await fixture.start()
        let kiosk = fixture.kiosk
        let local = try #require(kiosk.retention.local)
        _ = try await kiosk.manager.shoot(kiosk.settings.shotRequest())
        let sent = try await kiosk.posting.post(caption: "sent")
        try await fixture.waitForUpload(sent.metadata.id)
        _ = try await kiosk.manager.shoot(kiosk.settings.shotRequest())
        let current = try #require(kiosk.settings.workspace.currentShot())
        // The sent record is three days old; the current shot is new.
        let receipt = fixture.directory + "/outbox/sent/\(sent.metadata.id).json"
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: receipt))) as? [String: Any])
        record["uploadedAt"] = RFC3339.string(Date().addingTimeInterval(-3 * 86_400))
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: receipt))

        // A pass while a guest's post or delete holds the shot: the record goes all the same
        // (before, the whole pass was refused as "posting now", and held the booth when it ran).
        try await kiosk.manager.holdingCurrentShot { () async throws(RecorderError) in
            await kiosk.retention.purge(local)
        }
        #expect(!FileManager.default.fileExists(atPath: receipt), "the expired record went during the guest's hold")
        #expect(kiosk.settings.workspace.currentShot()?.id == current.id, "the young shot stays")
    }
}
