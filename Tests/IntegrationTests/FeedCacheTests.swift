import Foundation
import Testing
@testable import Settings
@testable import Publishing
@testable import Library
import StorageUpload
#if canImport(Glibc)
import Glibc
#endif
import StoreValues
import Failures
import SystemSupport
import Posting

/// Writes posts straight into a store: metadata documents and index objects (cheap), and, for the
/// posts that need one, a video of random bytes.
struct StoreSeeder {
    let store: any StorageBackend

    /// A post's metadata for a video of `video` bytes, created `age` seconds before `now`.
    func metadata(id: String, caption: String, created: Date, video: [UInt8] = []) -> PostMetadata {
        PostMetadata(id: id, video: "\(id).mp4", key: PostMetadata.videoKey(id: id), metadataKey: PostMetadata.metadataKey(id: id),
                     url: store.url(forKey: PostMetadata.videoKey(id: id)), ext: "mp4", width: 320, height: 240,
                     durationSeconds: 1.5, frameRate: 15, codec: "h264", byteSize: Int64(video.count),
                     sha256: FileDigest.sha256(video), caption: caption, author: .init(id: "t", name: "tester"),
                     createdAt: RFC3339.string(created), camera: "testsrc", likeCount: 0, shareCount: 0, commentCount: 0)
    }

    /// Stores the metadata (and the video when given) and, unless `indexed` is false, the index object.
    func post(_ metadata: PostMetadata, video: [UInt8]? = nil, indexed: Bool = true) throws {
        if let video { try store.write(video, key: metadata.key, contentType: "video/mp4") }
        try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
        if indexed { try PostFeed(store: store).index(metadata) }
    }

    /// `count` posts one second apart, the newest at `newest`; returns their ids newest first.
    func posts(_ count: Int, newest: Date = Date(), indexOnly: Bool = false) throws -> [String] {
        let items = (0..<count).map { i in (id: Self.id(i), created: newest.addingTimeInterval(-Double(i))) }
        _ = try OnThreads.map(items, width: 16) { item in
            let m = metadata(id: item.id, caption: "post \(item.id)\nsecond line", created: item.created)
            if indexOnly {
                try store.write(Array("{}".utf8), key: PostFeed.indexKey(id: item.id, createdAt: m.createdAt, kiosk: nil), contentType: "application/json")
            } else {
                try post(m)
            }
        }
        return items.map(\.id)
    }

    /// A valid, unique post id for index `i`.
    static func id(_ i: Int) -> String {
        let digits = String(i)
        return "P" + String(repeating: "0", count: 9 - digits.count) + digits
    }
}

@Suite struct FeedTests {
    private func localStore() throws -> (LocalDirectoryBackend, String) {
        let dir = try Tools.tempDirectory()
        return (LocalDirectoryBackend(root: "\(dir)/store"), dir)
    }

    @Test func pagesAreNewestFirstByNumberAndByCursorAndStableWhilePostsArrive() throws {
        let (store, dir) = try localStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let seeder = StoreSeeder(store: store)
        let now = Date()
        let ids = try seeder.posts(25, newest: now)
        let feed = PostFeed(store: store)

        let first = try feed.page(1, size: 10)
        #expect(first.entries.map(\.id) == Array(ids[0..<10]))
        #expect(first.entries[0].caption == "post \(ids[0])")  // first line only
        #expect(first.entries[0].author == "tester" && first.entries[0].durationSeconds == 1.5 && first.entries[0].problem == nil)
        #expect(first.next == ids[9])
        #expect(try feed.page(3, size: 10).entries.map(\.id) == Array(ids[20..<25]))
        #expect(try feed.page(3, size: 10).next == nil)
        #expect(try feed.page(4, size: 10).entries.isEmpty)

        // Two new posts arrive: page 2 by number shifts, the cursor does not.
        for (i, id) in ["NEWxxxxxx1", "NEWxxxxxx2"].enumerated() {
            try seeder.post(seeder.metadata(id: id, caption: "new", created: now.addingTimeInterval(Double(10 + i))))
        }
        #expect(try feed.page(after: first.next!, size: 10).entries.map(\.id) == Array(ids[10..<20]))
        #expect(try feed.page(1, size: 2).entries.map(\.id) == ["NEWxxxxxx2", "NEWxxxxxx1"])
        #expect(try feed.page(2, size: 10).entries.first?.id == ids[8])

        #expect(throws: RecorderError.self) { try feed.page(0, size: 10) }
        #expect(throws: RecorderError.self) { try feed.page(1, size: 1001) }
        #expect(throws: RecorderError.self) { try feed.page(after: "AAAAAAAAAA", size: 5) }
    }

    @Test func missingAndDamagedMetadataAreShownNotFatal() throws {
        let (store, dir) = try localStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let seeder = StoreSeeder(store: store)
        let now = Date()
        try seeder.post(seeder.metadata(id: "GOODxxxxx1", caption: "fine", created: now))
        let gone = seeder.metadata(id: "GONExxxxx1", caption: "x", created: now.addingTimeInterval(-1))
        try PostFeed(store: store).index(gone)
        let broken = seeder.metadata(id: "BROKENxxx1", caption: "x", created: now.addingTimeInterval(-2))
        try PostFeed(store: store).index(broken)
        try store.write(Array("{\"id\": \"BROKENxxx1\", \"caption\": ".utf8), key: broken.metadataKey, contentType: "application/json")
        let other = seeder.metadata(id: "OTHERxxxx1", caption: "x", created: now.addingTimeInterval(-3))
        try PostFeed(store: store).index(other)
        try store.write(Array(try seeder.metadata(id: "SOMEONEel1", caption: "x", created: now).jsonData()), key: other.metadataKey,
                        contentType: "application/json")

        let page = try PostFeed(store: store).page(1, size: 10)
        #expect(page.entries.map(\.id) == ["GOODxxxxx1", "GONExxxxx1", "BROKENxxx1", "OTHERxxxx1"])
        #expect(page.entries[0].problem == nil)
        #expect(page.entries[1].problem == .metadataMissing(key: gone.metadataKey))
        #expect(page.entries[2].problem == .metadataNotAPost)
        #expect(page.entries[3].problem == .metadataNamesAnotherPost(id: "SOMEONEel1"))
    }

    @Test func reindexFindsPostsFromBeforeTheFeedOnce() throws {
        let (store, dir) = try localStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let seeder = StoreSeeder(store: store)
        let now = Date()
        try seeder.post(seeder.metadata(id: "INDEXEDxx1", caption: "a", created: now))
        try seeder.post(seeder.metadata(id: "OLDxxxxxx1", caption: "b", created: now.addingTimeInterval(-60)), indexed: false)
        try seeder.post(seeder.metadata(id: "OLDxxxxxx2", caption: "c", created: now.addingTimeInterval(60)), indexed: false)
        try store.write(Array("not json".utf8), key: PostMetadata.metadataKey(id: "DAMAGEDxx1"), contentType: "application/json")
        let feed = PostFeed(store: store)
        #expect(try feed.page(1, size: 10).entries.map(\.id) == ["INDEXEDxx1"])

        let report = try feed.reindex(poster: Posters.jpeg)
        #expect(report.added == 3 && report.damaged == ["DAMAGEDxx1"])
        let ids = try feed.page(1, size: 10).entries.map(\.id)
        #expect(ids.filter { $0 != "DAMAGEDxx1" } == ["OLDxxxxxx2", "INDEXEDxx1", "OLDxxxxxx1"])
        // The damaged document is placed by its store time (just written) and shown as damaged.
        #expect(ids.count == 4 && ids.last != "DAMAGEDxx1")
        #expect(try feed.reindex(poster: Posters.jpeg).added == 0)
    }

    @Test func theCLIPrintsPagesAndRefusesBadOptions() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        // A store with no post: said, with where it looked, and no success (issue 49: the wrong
        // store looked like an empty one).
        let empty = try box.recorder(["feed", "--json"])
        #expect(failed(empty) == Failed(66, "notFound", "CLIFailure.noPosts"), "\(empty.stdout) \(empty.stderr)")
        #expect(failureData(empty)["store"] as? String == box.localStore, "\(empty.stdout)")
        try box.shoot()
        let posted = try box.recorder(["post", "--caption", "hello feed\nline two", "--json"])
        #expect(posted.status == 0, "\(posted.stderr)")
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String)
        let listed = try box.recorder(["feed"])
        #expect(listed.status == 0 && listed.stdout.contains(id) && listed.stdout.contains("\"hello feed\""), "\(listed.stdout)\(listed.stderr)")
        let json = try box.recorder(["feed", "--json", "--limit", "5"])
        let page = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entries = try #require(page["entries"] as? [[String: Any]])
        #expect(entries.first?["id"] as? String == id && entries.first?["caption"] as? String == "hello feed")
        #expect(try box.recorder(["feed", "--page", "0"]).status == 64)
        #expect(try box.recorder(["feed", "--limit", "5000"]).status == 64)
        let old = try box.recorder(["feed", "--size", "5"])
        #expect(old.status == 0 && old.stdout.contains(id) && old.stderr.contains("--size is now --limit"), "\(old.stderr)")
        #expect(try box.recorder(["feed", "--page", "2", "--after", id]).status == 64)
        #expect(try box.recorder(["feed", "--after", "ZZZZZZZZZZ"]).status == 66)
        let unreachable = try box.recorder(["feed", "--backend", "s3", "--endpoint", "http://127.0.0.1:9", "--bucket", "b",
                                            "--set", "network.connect_timeout_seconds=1"])
        #expect(unreachable.status == 78 || unreachable.status == 75, "\(unreachable.stderr)")
    }
}

/// Counts downloads through a real store, to see single flights.
final class CountingStore: StorageBackend, @unchecked Sendable {
    let base: any StorageBackend
    private let lock = NSLock()
    private var count = 0
    var downloads: Int { lock.withLock { count } }
    let delay: useconds_t

    init(_ base: any StorageBackend, delay: useconds_t = 0) {
        self.base = base
        self.delay = delay
    }

    var location: String { base.location }
    var destination: StoreDestination { base.destination }
    func url(forKey key: String) -> String { base.url(forKey: key) }
    func prepare() throws(StorageError) { try base.prepare() }
    func partSize(forSize size: Int64) -> Int64? { base.partSize(forSize: size) }
    func stat(key: String) throws(StorageError) -> StoredObject? { try base.stat(key: key) }
    func upload(path: String, key: String, contentType: String, digest: FileDigest, journal: String) throws(StorageError) -> String? {
        try base.upload(path: path, key: key, contentType: contentType, digest: digest, journal: journal)
    }
    func matches(_ object: StoredObject, path: String, digest: FileDigest) throws(StorageError) -> Bool {
        try base.matches(object, path: path, digest: digest)
    }
    func list(prefix: String, startAfter: String?, maxKeys: Int) throws(StorageError) -> ObjectListing {
        try base.list(prefix: prefix, startAfter: startAfter, maxKeys: maxKeys)
    }
    func read(key: String, limit: Int) throws(StorageError) -> [UInt8]? { try base.read(key: key, limit: limit) }
    func download(key: String, into descriptor: Int32, progress: ((_ written: Int64) -> Void)?) throws(StorageError) -> DownloadedObject? {
        lock.withLock { count += 1 }
        usleep(delay)  // keeps the first download in flight while the others arrive
        return try base.download(key: key, into: descriptor, progress: progress)
    }
    func write(_ bytes: [UInt8], key: String, contentType: String) throws(StorageError) {
        try base.write(bytes, key: key, contentType: contentType)
    }
    func delete(key: String) throws(StorageError) { try base.delete(key: key) }
}

@Suite struct VideoCacheTests {
    static func randomVideo(_ size: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func setUp(videos: Int, size: Int) throws -> (store: LocalDirectoryBackend, posts: [PostMetadata], dir: String) {
        let dir = try Tools.tempDirectory()
        let store = LocalDirectoryBackend(root: "\(dir)/store")
        let seeder = StoreSeeder(store: store)
        var posts: [PostMetadata] = []
        for i in 0..<videos {
            let video = Self.randomVideo(size)
            let m = seeder.metadata(id: StoreSeeder.id(i), caption: "v", created: Date(), video: video)
            try seeder.post(m, video: video)
            posts.append(m)
        }
        return (store, posts, dir)
    }

    private func directorySize(_ dir: String) throws -> Int64 {
        let result = try Tools.run("du", ["-sb", "--apparent-size", dir])
        return Int64(result.stdout.split(separator: "\t").first ?? "") ?? -1
    }

    @Test func evictionKeepsTheDiskLevelUnderItsBoundWhileThreeTimesItIsFetched() throws {
        // 12 videos of 100 kB through a 400 kB cache: 3x its bound.
        let (store, posts, dir) = try setUp(videos: 12, size: 100_000)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = VideoCache(settings: .init(directory: "\(dir)/cache", maxDiskBytes: 400_000, maxMemoryBytes: 150_000))
        var worst: Int64 = 0
        for post in posts {
            let video = try cache.video(for: post, from: store)
            #expect(video.level == .store)
            #expect(try sha256(of: video.path) == post.sha256)
            worst = max(worst, cache.usedBytes)
            #expect(cache.usedBytes <= 400_000)
        }
        #expect(worst > 300_000)
        // What du counts (the independent view) stays under the bound as well.
        let videos = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/cache").filter { $0.hasSuffix(".mp4") }
        #expect(videos.count == 4)
        // The most recent four stay, least recently used go first; a hit refreshes.
        #expect(try cache.video(for: posts[8], from: store).level != .store)
        _ = try cache.video(for: posts[0], from: store)  // evicts the least recently used: posts[9]
        #expect(try cache.video(for: posts[9], from: store).level == .store)
        #expect(try cache.video(for: posts[8], from: store).level != .store)
        // Memory: the last video is served from memory; the bound holds one 100 kB video.
        #expect(try cache.video(for: posts[8], from: store).level == .memory)
        // A second cache over the same directory (another process) finds the files on disk.
        let other = VideoCache(settings: cache.settings)
        #expect(try other.video(for: posts[8], from: store).level == .disk)
    }

    @Test func truncatedOrDamagedFilesAreDetectedAndReplaced() throws {
        let (store, posts, dir) = try setUp(videos: 1, size: 50_000)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let settings = VideoCache.Settings(directory: "\(dir)/cache", maxMemoryBytes: 0)
        let counting = CountingStore(store)
        let first = try VideoCache(settings: settings).video(for: posts[0], from: counting)
        #expect(truncate(first.path, 20_000) == 0)
        let again = try VideoCache(settings: settings).video(for: posts[0], from: counting)
        #expect(again.level == .store && again.replaced == .wrongSize(id: posts[0].id, size: 20_000, expected: 50_000), "\(String(describing: again.replaced))")
        #expect(try sha256(of: again.path) == posts[0].sha256)
        // Same size, one byte changed: only the checksum can tell.
        let fd = open(again.path, O_WRONLY)
        var byte: UInt8 = 0x55
        #expect(pwrite(fd, &byte, 1, 1000) == 1)
        close(fd)
        let third = try VideoCache(settings: settings).video(for: posts[0], from: counting)
        #expect(third.level == .store && third.replaced == .wrongChecksum(id: posts[0].id), "\(String(describing: third.replaced))")
        #expect(try sha256(of: third.path) == posts[0].sha256)
        #expect(counting.downloads == 3)
        // A store whose copy does not match the metadata is refused, and nothing is cached.
        var wrong = posts[0]
        wrong.sha256 = String(repeating: "0", count: 64)
        _ = VideoCache(settings: settings).clear()
        #expect(throws: RecorderError.self) { try VideoCache(settings: settings).video(for: wrong, from: store) }
        #expect(VideoCache(settings: settings).entries().isEmpty)
    }

    @Test func concurrentFetchesOfOneVideoDownloadOnce() throws {
        let (store, posts, dir) = try setUp(videos: 1, size: 200_000)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let counting = CountingStore(store, delay: 300_000)
        let cache = VideoCache(settings: .init(directory: "\(dir)/cache"))
        let results = try OnThreads.map([0, 1, 2, 3, 4, 5], width: 6) { i in
            // Half share one cache (threads of one process), half have their own (other processes).
            let user = i % 2 == 0 ? cache : VideoCache(settings: cache.settings)
            return try user.video(for: posts[0], from: counting).path
        }
        #expect(counting.downloads == 1)
        #expect(Set(results).count == 1)
        #expect(try sha256(of: results[0]) == posts[0].sha256)
    }

    @Test func clearReportsExactlyTheBytesItRemoved() throws {
        let (store, posts, dir) = try setUp(videos: 3, size: 77_777)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = VideoCache(settings: .init(directory: "\(dir)/cache"))
        for post in posts { _ = try cache.video(for: post, from: store) }
        // A leftover of an interrupted download counts too.
        _ = FileManager.default.createFile(atPath: "\(dir)/cache/.tmp-leftover", contents: Data(count: 1234))
        let before = try directorySize("\(dir)/cache") - directorySize("\(dir)/cache/.locks")
        let report = cache.clear()
        let dirEntry = try directorySize("\(dir)/cache") - directorySize("\(dir)/cache/.locks")
        #expect(report.files == 4 && report.bytes == 3 * 77_777 + 1234)
        #expect(before - dirEntry == report.bytes)
        #expect(cache.entries().isEmpty && cache.clear().bytes == 0)
    }
}
