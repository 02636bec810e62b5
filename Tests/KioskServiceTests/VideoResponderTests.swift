import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Publishing
@testable import Library
import StorageUpload
import SystemSupport
import Testing
@testable import KioskService
@testable import Settings
@testable import KioskWords
@testable import KioskHTTP
import StoreValues
import Failures

/// A video played while it arrives from the store: the viewer gets each write as soon as the store
/// makes it, and sleeps in between until the store writes again (or ends), never on a clock.
@Suite(.timeLimit(.minutes(1))) struct VideoResponderTests {
    /// The local store, but a download writes the video's first `first` bytes, then holds until
    /// `release()`, then writes the rest: two writes the store reports, then its end.
    final class HeldStore: StorageBackend {
        let base: LocalDirectoryBackend
        let first: Int
        private let gate = DispatchSemaphore(value: 0)

        init(base: LocalDirectoryBackend, first: Int) {
            self.base = base
            self.first = first
        }

        func release() { gate.signal() }

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
            guard let bytes = try base.read(key: key, limit: Int.max) else { return nil }
            func put(_ part: ArraySlice<UInt8>) throws(StorageError) {
                if let code = part.withUnsafeBytes({ Descriptors.writeAll(descriptor, $0) }) {
                    throw StorageError.local("write", "the held download", code: code)
                }
            }
            try put(bytes[..<first])
            progress?(Int64(first))
            gate.wait()
            try put(bytes[first...])
            progress?(Int64(bytes.count))
            return DownloadedObject(size: Int64(bytes.count), sha256: FileDigest.sha256(bytes))
        }
        func write(_ bytes: [UInt8], key: String, contentType: String) throws(StorageError) {
            try base.write(bytes, key: key, contentType: contentType)
        }
        func delete(key: String) throws(StorageError) { try base.delete(key: key) }
    }

    /// Hands what the responder writes to the test as it comes.
    struct Viewer: ResponseBodyWriter {
        let sink: AsyncStream<ByteBuffer>.Continuation
        func write(_ buffer: ByteBuffer) async throws { sink.yield(buffer) }
        func finish(_ trailingHeaders: HTTPFields?) async throws { sink.finish() }
    }

    /// A post of `video` in a local store held after its first `first` bytes; `sha256` as posted
    /// (the video's own unless told).
    private static func held(_ video: [UInt8], first: Int, directory: String, sha256: String? = nil) throws -> (HeldStore, PostMetadata) {
        let base = LocalDirectoryBackend(root: directory + "/store")
        var metadata = try PostMetadata.decode(Data(#"{"id":"x","video":"x.mp4","key":"k","metadataKey":"m","url":"u","ext":"mp4","width":1,"height":1,"durationSeconds":2,"frameRate":15,"codec":"h264","byteSize":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","caption":"c","author":{"id":"a","name":"A"},"createdAt":"2026-01-01T00:00:00Z","camera":"c","likeCount":0,"shareCount":0,"commentCount":0}"#.utf8))
        metadata.rename(to: "HELD", url: base.url(forKey: PostMetadata.videoKey(id: "HELD")))
        metadata.byteSize = Int64(video.count)
        metadata.sha256 = sha256 ?? FileDigest.sha256(video)
        try base.write(video, key: metadata.key, contentType: "video/mp4")
        return (HeldStore(base: base, first: first), metadata)
    }

    /// Looks `metadata` up in a new cache under `directory`, its fetch on a thread of its own, and
    /// answers it as `VideoResponder` does once the first bytes are in: the arrival and the answer's
    /// body as it comes.
    private static func play(_ metadata: PostMetadata, from store: HeldStore, directory: String) async throws
        -> (VideoCache.Arrival, AsyncStream<ByteBuffer>, Task<Void, any Error>) {
        let cache = VideoCache(settings: VideoCache.Settings(directory: directory + "/cache"))
        guard case .arriving(let arrival) = cache.lookUp(metadata, from: store, start: { fetch in Thread { fetch() }.start() }) else {
            Issue.record("a video not in the cache yet is not arriving")
            throw CancellationError()
        }
        await VideoResponder.firstBytes(of: arrival)
        // The status comes with the first bytes, while the store holds the rest.
        #expect(arrival.outcome == nil && arrival.readable == min(Int64(store.first), metadata.byteSize - 1))
        let slot = try #require(ClientSlots("test", total: 1, perClient: 1).take(ClientAddress(nil)))
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "kiosk", path: "/api/videos/HELD.mp4"),
                              body: RequestBody(buffer: ByteBuffer()))
        let response = VideoResponder.streamed(arrival, request: request, slot: slot)
        #expect(response.status == .ok)
        let (chunks, sink) = AsyncStream.makeStream(of: ByteBuffer.self)
        let viewer = Task {
            defer { sink.finish() }
            try await response.body.write(Viewer(sink: sink))
        }
        return (arrival, chunks, viewer)
    }

    @Test func theViewerGetsEachWriteAndSleepsUntilTheNext() async throws {
        let directory = NSTemporaryDirectory() + "recorder-responder-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let (store, metadata) = try Self.held(video, first: 100_000, directory: directory)
        defer { store.release() }  // (a failed expectation must not leave the fetch's thread held)
        let (arrival, chunks, viewer) = try await Self.play(metadata, from: store, directory: directory)

        // The first write reaches the viewer while the store holds the rest.
        var received: [UInt8] = []
        var iterator = chunks.makeAsyncIterator()
        while received.count < store.first, let chunk = await iterator.next() { received += Array(buffer: chunk) }
        // (compared first: a failed comparison of two long arrays is not spelled out byte by byte)
        let firstWrite = received == Array(video[..<store.first])
        #expect(firstWrite, "received \(received.count) of the first \(store.first) bytes")
        // The viewer is ahead of the store now. A poll would wake every few milliseconds while the
        // store holds; this viewer sleeps until the store writes again.
        try await Task.sleep(for: .milliseconds(500))
        store.release()
        while let chunk = await iterator.next() { received += Array(buffer: chunk) }
        try await viewer.value
        let whole = received == video
        #expect(whole, "received \(received.count) of \(video.count) bytes")

        // The store changed the arrival three times (two writes, then its end); every wait of the
        // viewer ended at one of them (each at a later one than the wait before), none at a clock,
        // however long the store held.
        let changes = arrival.changed.generation
        #expect(changes == 3)
        #expect(arrival.waits <= Int(changes), "\(arrival.waits) waits for \(changes) changes")
    }

    @Test func aCopyThatDoesNotMatchEndsTheViewerShortOfItsLastByte() async throws {
        let directory = NSTemporaryDirectory() + "recorder-responder-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        // The store writes the whole video, then holds before it ends.
        let (store, metadata) = try Self.held(video, first: video.count, directory: directory, sha256: String(repeating: "0", count: 64))
        defer { store.release() }
        let (arrival, chunks, viewer) = try await Self.play(metadata, from: store, directory: directory)

        // Everything but the last byte reaches the viewer: only a whole video that matches its post
        // releases that one.
        var received: [UInt8] = []
        var iterator = chunks.makeAsyncIterator()
        while received.count < video.count - 1, let chunk = await iterator.next() { received += Array(buffer: chunk) }
        let allButTheLast = received == Array(video.dropLast())
        #expect(allButTheLast, "received \(received.count) of \(video.count) bytes")
        // The end of the fetch (a copy that does not match) wakes the viewer, which fails.
        store.release()
        while let chunk = await iterator.next() { received += Array(buffer: chunk) }
        await #expect(throws: VideoResponder.ArrivalFailed.self) { try await viewer.value }
        #expect(received.count == video.count - 1)
        #expect(arrival.waits <= Int(arrival.changed.generation), "\(arrival.waits) waits for \(arrival.changed.generation) changes")
        guard case .failure(let error) = arrival.outcome else { Issue.record("the bad copy was taken"); return }
        #expect(error.kind == .badData, "\(error.message)")
    }
}
