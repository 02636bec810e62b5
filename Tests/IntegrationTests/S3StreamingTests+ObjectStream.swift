import Failures
import Foundation
import Library
import StorageUpload
import StoreValues
import SystemSupport
import Testing

/// A store's streamed read (a host's Download all takes each post this way): one GET for a whole
/// range, its pieces taken as they come, checked against the bytes curl fetches itself; a reader
/// who stops early ends the transfer by letting the stream go.
extension S3StreamingTests {
    /// recorder's client for the test's server, through the fault proxy (which logs each request).
    private func store(_ s3: S3Fixture, transfer: TransferSettings = TransferSettings()) throws -> S3Backend {
        try S3Backend(S3Configuration(
            endpoint: "http://127.0.0.1:\(s3.proxyPort)", region: "us-east-1", bucket: S3Fixture.bucket, prefix: "",
            credentials: S3Credentials(accessKeyID: S3Fixture.access, secretAccessKey: S3Fixture.secret, source: "the test"),
            transfer: transfer))
    }

    /// `count` bytes of no pattern a piece boundary could hide behind, written to `key`; returns the
    /// store's copy as curl fetches it.
    private func object(_ s3: S3Fixture, _ store: S3Backend, key: String, count: Int, in root: String) throws -> [UInt8] {
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        try store.write([UInt8](random.readData(ofLength: count)), key: key, contentType: "video/mp4")
        #expect(try s3.get(key, to: "\(root)/fetched") == 200)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(root)/fetched")))
    }

    /// Posts of random bytes of `sizes` written to `videos/<name><index>.mp4`, as a Download all's
    /// members (their SHA-256 and CRC-32 from the store's copies as curl fetches them).
    private func members(_ s3: S3Fixture, _ store: S3Backend, sizes: [Int], named name: String, in root: String) throws -> [PostArchive.Member] {
        try sizes.enumerated().map { index, size in
            let bytes = try object(s3, store, key: "videos/\(name)\(index).mp4", count: size, in: root)
            var crc = CRC32()
            bytes.withUnsafeBytes { crc.update($0) }
            return PostArchive.Member(name: "event/\(index).mp4", key: "videos/\(name)\(index).mp4", id: "\(name)\(index)", size: Int64(size),
                                      sha256: FileDigest.sha256(bytes), crc32: crc.value, createdAt: "2026-11-28T20:00:00Z")
        }
    }

    /// Established TCP connections from this machine to `port` (the client's side of each), as `ss` lists them.
    private func connections(to port: Int) throws -> Int {
        let listed = try Tools.run("ss", ["-Htn", "state", "established", "dst", "127.0.0.1:\(port)"])
        return listed.stdout.split(separator: "\n").count
    }

    @Test func aWholeObjectAndAMiddleRangeComeInOneRequestEach() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3)
        let expected = try object(s3, store, key: "videos/whole.mp4", count: (9 << 20) + 123, in: root)
        try #require(expected.count == (9 << 20) + 123)
        s3.clearRequests()

        let stream = try #require(try store.stream(key: "videos/whole.mp4", range: 0...Int64(expected.count - 1)))
        var pieces: [[UInt8]] = []
        while let piece = try stream.next(limit: 4 << 20) { pieces.append(piece) }
        #expect(pieces.map(\.count) == [4 << 20, 4 << 20, (1 << 20) + 123])
        #expect(Array(pieces.joined()) == expected)
        let middle = try #require(try store.stream(key: "videos/whole.mp4", range: 3_000_001...7_000_000))
        var bytes: [UInt8] = []
        while let piece = try middle.next(limit: 1 << 20) { bytes += piece }
        #expect(bytes == Array(expected[3_000_001...7_000_000]))
        // One request each, for the whole range: not one per piece.
        let requests = s3.requests().filter { $0.method == "GET" && $0.path == "/\(S3Fixture.bucket)/videos/whole.mp4" }
        #expect(requests.count == 2, "\(requests)")
        // (presigned links: the answers read straight into the pieces, `DirectStream`)
        #expect(requests.allSatisfy { $0.hasQuery("X-Amz-Signature") }, "\(requests)")
        let ranges = s3.requestLog().split(separator: "\n").filter { $0.lowercased().hasPrefix("    range:") }.map { $0.dropFirst(4).lowercased() }
        #expect(ranges == ["range: bytes=0-\(expected.count - 1)", "range: bytes=3000001-7000000"], "\(ranges)")
    }

    /// A reader that takes one piece of a large object and lets the stream go: the transfer ends
    /// there (its connection closed), and the next stream works as the first did.
    @Test func aReaderWhoStopsEarlyEndsTheTransfer() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3)
        let expected = try object(s3, store, key: "videos/large.mp4", count: 48 << 20, in: root)
        // (the write's connection, kept alive for the store's next request)
        let before = try connections(to: s3.proxyPort)
        do {
            let stream = try #require(try store.stream(key: "videos/large.mp4", range: 0...Int64(expected.count - 1)))
            #expect(try stream.next(limit: 1 << 20) == Array(expected[..<(1 << 20)]))
            #expect(try connections(to: s3.proxyPort) == before + 1)
        }
        // (released: its handles cleaned up, the socket closed at once)
        var open = try connections(to: s3.proxyPort)
        for _ in 0..<50 where open > before {
            Thread.sleep(forTimeInterval: 0.1)
            open = try connections(to: s3.proxyPort)
        }
        #expect(open == before, "the stopped transfer's connection is still open")
        let again = try #require(try store.stream(key: "videos/large.mp4", range: 47 << 20...Int64(expected.count - 1)))
        #expect(try again.next(limit: 2 << 20) == Array(expected[(47 << 20)...]))
        #expect(try again.next(limit: 2 << 20) == nil)
    }

    /// A store whose answer ends early (its connection closed after 1 MiB), and one that never
    /// answers: a transfer failure, and a timeout after the stall timeout, by kind; never a short
    /// piece passed off as the object's end. The next read is whole.
    @Test func aStoreThatStopsAnsweringFailsTheReadAsATransfer() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3, transfer: TransferSettings(connectTimeoutSeconds: 5, stallTimeoutSeconds: 2))
        let expected = try object(s3, store, key: "videos/cut.mp4", count: 6 << 20, in: root)
        let whole = 0...Int64(expected.count - 1)

        try s3.faults([["match": "GET /\(S3Fixture.bucket)/videos/cut.mp4", "action": "cut-answer", "after": 1 << 20, "count": 1]])
        let cut = try #require(try store.stream(key: "videos/cut.mp4", range: whole))
        var taken = 0
        let ended = #expect(throws: StorageError.self) { while let piece = try cut.next(limit: 4 << 20) { taken += piece.count } }
        if case .transport = ended?.kind {} else { Issue.record("a cut answer failed as \(String(describing: ended))") }
        #expect(ended?.isRetryable == true)
        #expect(taken < 1 << 20)

        try s3.faults([["match": "GET /\(S3Fixture.bucket)/videos/cut.mp4", "action": "hold-answer", "count": 1]])
        let quiet = #expect(throws: StorageError.self) { try store.stream(key: "videos/cut.mp4", range: whole) }
        if case .timedOut = quiet?.reason {} else { Issue.record("a store that never answered failed as \(String(describing: quiet))") }

        let again = try #require(try store.stream(key: "videos/cut.mp4", range: whole))
        var bytes: [UInt8] = []
        while let piece = try again.next(limit: 4 << 20) { bytes += piece }
        #expect(bytes == expected)
    }

    /// A store slower than the low-water mark a second (400 KB/s, the stream waking at 2 MiB): its
    /// bytes are read as they come, whole; slow is not stalled, even with a 2 s stall timeout.
    @Test func aSlowStoreIsReadAsItComesNotFailedAsStalled() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3, transfer: TransferSettings(connectTimeoutSeconds: 5, stallTimeoutSeconds: 2))
        let expected = try object(s3, store, key: "videos/slow.mp4", count: 2 << 20, in: root)
        try s3.faults([["match": "GET /\(S3Fixture.bucket)/videos/slow.mp4", "action": "throttle-download", "rate": 400_000, "count": 1]])
        let stream = try #require(try store.stream(key: "videos/slow.mp4", range: 0...Int64(expected.count - 1)))
        var bytes: [UInt8] = []
        while let piece = try stream.next(limit: 4 << 20) { bytes += piece }
        #expect(bytes == expected)
    }

    /// An object shorter than the range asked (the post changed since the archive was made): its
    /// bytes, then the end, never more; a range wholly past it, the store's refusal; nothing
    /// there, nil.
    @Test func aChangedObjectEndsTheStreamWhereItEnds() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3)
        let expected = try object(s3, store, key: "videos/short.mp4", count: 3 << 20, in: root)
        let stream = try #require(try store.stream(key: "videos/short.mp4", range: 1 << 20...(6 << 20)))
        var bytes: [UInt8] = []
        while let piece = try stream.next(limit: 4 << 20) { bytes += piece }
        #expect(bytes == Array(expected[(1 << 20)...]))
        let error = #expect(throws: StorageError.self) { try store.stream(key: "videos/short.mp4", range: 4 << 20...(5 << 20)) }
        #expect(error?.reason == .rangeNotInObject(target: "videos/short.mp4", size: nil, from: 4 << 20, to: 5 << 20), "\(String(describing: error))")
        #expect(try store.stream(key: "videos/none.mp4", range: 0...9) == nil)
    }

    /// Download all asks the store for the next post while the last pieces of the one before are
    /// read (its answer on its way, not waited for between the two): its request is in the store's
    /// log before the first post's last byte is taken, and the archive is whole.
    @Test func theNextPostIsAskedForWhileTheOneBeforeEnds() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3)
        let archive = try PostArchive(members: try members(s3, store, sizes: [3 << 20, 3 << 20], named: "a", in: root))
        s3.clearRequests()
        let reader = PostArchive.Reader(archive, store: store, range: 0...(archive.length - 1))
        // (the first local header, then 1 MiB of the first post: 2 MiB of it to come)
        var zipped: [UInt8] = []
        while zipped.count < 1 << 20, let piece = try reader.next(limit: 1 << 20) { zipped += piece }
        func gets() -> [String] { s3.requests().filter { $0.method == "GET" }.map(\.path) }
        let both = ["/\(S3Fixture.bucket)/videos/a0.mp4", "/\(S3Fixture.bucket)/videos/a1.mp4"]
        // (the proxy logs a request once it has read it)
        for _ in 0..<50 where gets() != both { Thread.sleep(forTimeInterval: 0.05) }
        #expect(gets() == both)
        while let piece = try reader.next(limit: 1 << 20) { zipped += piece }
        #expect(gets() == both, "the asked request was not the one read")
        try Data(zipped).write(to: URL(fileURLWithPath: "\(root)/all.zip"))
        let tested = try Tools.run("unzip", ["-t", "\(root)/all.zip"])
        #expect(tested.status == 0, "\(tested.stdout)")
    }

    /// Download all from an S3 store, each post streamed: the archive `unzip -t` accepts, then, the
    /// store's copy of a post changed (one byte, the same size), an answer that stops at that post's
    /// end with the post named, never its bad bytes passed off whole.
    @Test func anArchiveOfStreamedPostsStopsShortAtAChangedPost() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3)
        let archive = try PostArchive(members: try members(s3, store, sizes: [(5 << 20) + 17, 3 << 20], named: "p", in: root))
        var zipped: [UInt8] = []
        let reader = PostArchive.Reader(archive, store: store, range: 0...(archive.length - 1))
        while let piece = try reader.next(limit: 4 << 20) { zipped += piece }
        #expect(UInt64(zipped.count) == archive.length)
        try Data(zipped).write(to: URL(fileURLWithPath: "\(root)/all.zip"))
        let tested = try Tools.run("unzip", ["-t", "\(root)/all.zip"])
        #expect(tested.status == 0, "\(tested.stdout)")

        var changed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(root)/fetched")))
        try #require(changed.count == 3 << 20)
        changed[1_000] ^= 0xFF
        try store.write(changed, key: "videos/p1.mp4", contentType: "video/mp4")
        let again = PostArchive.Reader(archive, store: store, range: 0...(archive.length - 1))
        var sent = 0
        #expect(throws: RecorderError.gallery(.postChanged(id: "p1"))) {
            while let piece = try again.next(limit: 4 << 20) { sent += piece.count }
        }
        #expect(sent < zipped.count - (3 << 20), "the changed post was sent whole")
    }

    /// Download all written straight to the connection (`SocketSink`: the posts' bytes spliced from
    /// the store's sockets in the kernel, here into a local stream socket read on a thread): the
    /// same bytes as the archive read into buffers, whole and from half way (a resume). A post
    /// replaced by an upload (another SHA-256 kept with it) stops the answer before its first byte;
    /// one replaced by a program that keeps none, at its end, its last bytes held back.
    @Test func anArchiveSplicedToTheConnectionIsTheSameBytesAndStillChecked() throws {
        let s3 = try S3Fixture()
        let root = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try store(s3)
        // As a booth uploads them: each with its SHA-256 kept beside it.
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        func upload(_ bytes: [UInt8], key: String) throws -> FileDigest {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(root)/upload"))
            let digest = try FileDigest.compute(path: "\(root)/upload")
            try store.upload(path: "\(root)/upload", key: key, contentType: "video/mp4", digest: digest, journal: "\(root)/journal")
            return digest
        }
        var members: [PostArchive.Member] = [], originals: [[UInt8]] = []
        for (index, size) in [(3 << 20) + 4_321, 2 << 20].enumerated() {
            let bytes = [UInt8](random.readData(ofLength: size))
            let digest = try upload(bytes, key: "videos/s\(index).mp4")
            var crc = CRC32()
            bytes.withUnsafeBytes { crc.update($0) }
            members.append(PostArchive.Member(name: "event/\(index).mp4", key: "videos/s\(index).mp4", id: "s\(index)", size: Int64(size),
                                              sha256: digest.sha256, crc32: crc.value, createdAt: "2026-11-28T20:00:00Z"))
            originals.append(bytes)
        }
        let archive = try PostArchive(members: members)
        var zipped: [UInt8] = []
        let reader = PostArchive.Reader(archive, store: store, range: 0...(archive.length - 1))
        while let piece = try reader.next(limit: 4 << 20) { zipped += piece }
        try Data(zipped).write(to: URL(fileURLWithPath: "\(root)/all.zip"))
        #expect(try Tools.run("unzip", ["-t", "\(root)/all.zip"]).status == 0)

        /// The bytes `range` of the archive as the sink sent them, and the reader's failure.
        func spliced(_ range: ClosedRange<UInt64>) throws -> (bytes: [UInt8], failure: RecorderError?) {
            var ends: [Int32] = [-1, -1]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            let received = Received(ends[1])
            var failure: RecorderError?
            do {
                let sink = try SocketSink(duplicating: ends[0])
                let reader = PostArchive.Reader(archive, store: store, range: range)
                do { while try reader.next(to: sink, limit: 1 << 20) > 0 {} } catch { failure = error }
                #expect(sink.flush() && sink.failure == nil)
            }
            close(ends[0])
            return (received.wait(), failure)
        }
        let whole = try spliced(0...(archive.length - 1))
        #expect(whole.failure == nil && whole.bytes == zipped)
        let half = archive.length / 2
        #expect(try spliced(half...(archive.length - 1)).bytes == Array(zipped[Int(half)...]))

        // (where the second post's bytes start and end in the archive)
        let changedStart = try #require(zipped.firstRange(of: originals[1].prefix(64))).lowerBound
        let changedEnd = changedStart + originals[1].count
        var changed = originals[1]
        changed[2_000] ^= 0xFF
        _ = try upload(changed, key: "videos/s1.mp4")
        let refused = try spliced(0...(archive.length - 1))
        #expect(refused.failure == .gallery(.postChanged(id: "s1")))
        #expect(refused.bytes == Array(zipped[..<changedStart]), "\(refused.bytes.count) of \(changedStart)")

        try store.write(changed, key: "videos/s1.mp4", contentType: "video/mp4")
        let cut = try spliced(0...(archive.length - 1))
        #expect(cut.failure == .gallery(.postChanged(id: "s1")))
        // (its last bytes held back until the whole was checked)
        #expect(cut.bytes.count < changedEnd && cut.bytes.count > changedStart, "\(cut.bytes.count) of \(changedEnd)")
    }
}

/// A socket read to its end on a thread of its own.
private final class Received: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ fd: Int32) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            close(fd)
            done.signal()
        }
    }

    func wait() -> [UInt8] {
        done.wait()
        return bytes
    }
}
