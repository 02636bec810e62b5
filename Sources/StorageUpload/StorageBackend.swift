package import FoundationEssentials
package import StoreValues
package import SystemSupport

/// An object store the outbox uploads into: the local directory (the default) or an S3-compatible
/// bucket. Keys are relative paths such as `videos/Ab3dE5fG7h.mp4`; the backend adds its prefix.
package protocol StorageBackend: ReadableStorage {
    /// Where objects go, for messages and `--dry-run`: a directory, or `s3://bucket/prefix at endpoint`.
    var location: String { get }

    /// The store as a queued post records it (no credentials): the flush compares it with each
    /// post's own before sending.
    var destination: StoreDestination { get }

    /// The address a viewer would use for `key`.
    func url(forKey key: String) -> String

    /// Makes the store ready to receive, before the first upload of a flush: creates the local
    /// directory. An S3 store needs no request: a missing bucket answers the first PUT with
    /// NoSuchBucket, which says more than a HEAD's bare 404.
    func prepare() throws(StorageError)

    /// The part size a file of `size` bytes will be uploaded in, or nil for a single request, so the
    /// caller can take the part checksums in the same pass as the file's own.
    func partSize(forSize size: Int64) -> Int64?

    /// What the store holds at `key`, or nil when there is nothing.
    func stat(key: String) throws(StorageError) -> StoredObject?

    /// Whether the store holds anything at `key` (`stat` without what it holds: the local
    /// directory reads no file for it, so asking costs the same whether there is one or not).
    func exists(key: String) throws(StorageError) -> Bool

    /// Uploads the file at `path` to `key`. `journal` is a file this call may use to resume an
    /// interrupted upload; it is removed when the upload completes. Returns the ETag the store
    /// must now report for the object (checked by the caller), or nil when it has none.
    @discardableResult
    func upload(path: String, key: String, contentType: String, digest: FileDigest,
                journal: String) throws(StorageError) -> String?

    /// Whether `object` holds exactly the bytes of the file at `path` (described by `digest`).
    func matches(_ object: StoredObject, path: String, digest: FileDigest) throws(StorageError) -> Bool

    /// A link that lets anyone GET `key` for `expiresSeconds` with no credentials (an S3 store's
    /// presigned URL), or nil when the store has no such thing (the local directory).
    func presignedURL(forKey key: String, expiresSeconds: Int, at date: Date) throws(StorageError) -> String?
}

extension StorageBackend {
    package func exists(key: String) throws(StorageError) -> Bool { try stat(key: key) != nil }

    package func presignedURL(forKey key: String, expiresSeconds: Int, at date: Date) throws(StorageError) -> String? { nil }
}

/// What a store reports about one object.
package struct StoredObject: Sendable, Equatable {
    package var size: Int64
    /// The S3 ETag without quotes (an MD5, or MD5-of-MD5s-N for a multipart upload).
    package var etag: String?
    /// The SHA-256 of the bytes, when the store computes it (the local directory does).
    package var sha256: String?

    package init(size: Int64, etag: String?, sha256: String?) {
        self.size = size
        self.etag = etag
        self.sha256 = sha256
    }
}

/// Reading a store back: listing keys page by page, small objects into memory, videos into a file.
/// Both stores list keys in byte order of their UTF-8 names, as S3 does.
package protocol ReadableStorage: Sendable {
    /// Up to `maxKeys` keys (at most 1,000) under `prefix`, after `startAfter` when given, in byte
    /// order; `isTruncated` says more follow. One request to an S3 store.
    func list(prefix: String, startAfter: String?, maxKeys: Int) throws(StorageError) -> ObjectListing

    /// The whole object at `key` when it is at most `limit` bytes (metadata, index entries), or nil
    /// when there is nothing there. A bigger object is an error.
    func read(key: String, limit: Int) throws(StorageError) -> [UInt8]?

    /// Bytes `range` of the object at `key` (at most `maximumRangeRead`), or nil when there is
    /// nothing there. A range past the object's end is an error; fewer bytes than asked, the object's
    /// end.
    func read(key: String, range: ClosedRange<Int64>) throws(StorageError) -> [UInt8]?

    /// Bytes `range` of the object at `key` as they arrive, in one request, taken a piece at a time
    /// (`ObjectStream.next`); nil when there is nothing there. The store sends no faster than the
    /// pieces are taken: a caller who stops taking holds about one piece of memory, and the transfer
    /// ends when the stream is released. A range past the object's end is an error; fewer bytes than
    /// asked, the object's end.
    func stream(key: String, range: ClosedRange<Int64>) throws(StorageError) -> (any ObjectStream)?

    /// `stream(key:range:)` asked now and opened later (`AskedStream.open`): the store's answer is
    /// on its way while the stream before it is still read (a Download all's next post). Released
    /// unopened, the request ends.
    func ask(key: String, range: ClosedRange<Int64>) throws(StorageError) -> AskedStream

    /// Streams the object at `key` into the open file `descriptor` (from its current offset), taking
    /// its SHA-256 on the way; nil when there is nothing there. `progress`, when given, is called on
    /// this thread after each write with the bytes written so far, so a reader of the file can follow
    /// it as it grows (a video played while it arrives).
    func download(key: String, into descriptor: Int32, progress: ((_ written: Int64) -> Void)?) throws(StorageError) -> DownloadedObject?

    /// Stores a small object from memory, replacing what is at `key`.
    func write(_ bytes: [UInt8], key: String, contentType: String) throws(StorageError)

    /// Removes the object at `key`; nothing there is no error (so a removal can be said again).
    func delete(key: String) throws(StorageError)

    /// Reads `keys` as `read(key:limit:)` does, at most `width` at once, and hands `body` each
    /// outcome by its index in `keys`, on this thread, as it arrives (an S3 store: in any order,
    /// all on this thread through libcurl's multi interface). The first error `body` throws stops
    /// new reads; those under way still reach `body`; then that error is thrown.
    func read(keys: [String], limit: Int, width: Int,
              _ body: (Int, Result<[UInt8]?, StorageError>) throws(StorageError) -> Void) throws(StorageError)

    /// Writes `objects` as `write(_:key:contentType:)` does, at most `width` at once. The first
    /// failure stops new writes; it is thrown once those under way have ended.
    func write(_ objects: [(bytes: [UInt8], key: String)], contentType: String, width: Int) throws(StorageError)
}

extension ReadableStorage {
    /// A range of an object read whole and cut (a store that reads no range of its own: the tests'
    /// stand-ins; both real stores read ranges).
    package func read(key: String, range: ClosedRange<Int64>) throws(StorageError) -> [UInt8]? {
        guard let bytes = try read(key: key, limit: Int(maximumRangeRead)) else { return nil }
        guard range.lowerBound >= 0, range.lowerBound < Int64(max(bytes.count, 1)) else {
            throw StorageError(.mismatch, .rangeNotInObject(target: key, size: Int64(bytes.count), from: range.lowerBound, to: range.upperBound), retryable: false)
        }
        return Array(bytes[Int(range.lowerBound)..<Int(min(range.upperBound + 1, Int64(bytes.count)))])
    }

    /// One ranged read per piece (a local directory: a file read by ranges streams as it is; the
    /// tests' stand-ins). The first byte is read at once, so nothing at `key` is nil here too.
    package func stream(key: String, range: ClosedRange<Int64>) throws(StorageError) -> (any ObjectStream)? {
        guard try read(key: key, range: range.lowerBound...range.lowerBound) != nil else { return nil }
        return RangedReads(store: self, key: key, range: range)
    }

    /// Asked when opened (a local directory has nothing to wait for).
    package func ask(key: String, range: ClosedRange<Int64>) throws(StorageError) -> AskedStream {
        AskedStream { () throws(StorageError) in try stream(key: key, range: range) }
    }

    /// One read after the other (a local directory has nothing to wait for).
    package func read(keys: [String], limit: Int, width: Int,
                      _ body: (Int, Result<[UInt8]?, StorageError>) throws(StorageError) -> Void) throws(StorageError) {
        for (index, key) in keys.enumerated() {
            let outcome: Result<[UInt8]?, StorageError>
            do throws(StorageError) { outcome = .success(try read(key: key, limit: limit)) } catch { outcome = .failure(error) }
            try body(index, outcome)
        }
    }

    /// One write after the other.
    package func write(_ objects: [(bytes: [UInt8], key: String)], contentType: String, width: Int) throws(StorageError) {
        for object in objects { try write(object.bytes, key: object.key, contentType: contentType) }
    }
}

/// A stream asked of a store and not opened yet (`ReadableStorage.ask`).
package struct AskedStream {
    private let answer: () throws(StorageError) -> (any ObjectStream)?

    package init(_ answer: @escaping () throws(StorageError) -> (any ObjectStream)?) {
        self.answer = answer
    }

    /// The stream, as `stream(key:range:)` gives it (nil: nothing there); once.
    package func open() throws(StorageError) -> (any ObjectStream)? {
        try answer()
    }
}

/// An object's bytes taken a piece at a time (`ReadableStorage.stream`), in order. Not for two
/// threads at once; its transfer ends when it is released.
package protocol ObjectStream: AnyObject {
    /// Up to `limit` bytes from where the last piece ended (fewer only at the range's end, or the
    /// object's when it ends first), waiting for them; nil after the last.
    func next(limit: Int) throws(StorageError) -> [UInt8]?
    /// As `next(limit:)`, into `piece` (up to its size): how many bytes it holds now, 0 after the
    /// last. A stream that can has the store's bytes land there with no copy in between.
    func next(into piece: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int
    /// The SHA-256 the store keeps with the object (S3's `x-amz-meta-sha256`, which recorder sets
    /// on every upload, each checked by the store against its Content-MD5), as the answer said it:
    /// which object this is, with no byte of it read. Nil when the answer said none.
    var keptSHA256: String? { get }
    /// The next `count` bytes (fewer at the end) sent to `sink`, each shown to `seen` before it
    /// goes when it is given (false: those bytes must not go, and the pass ends before them; bytes
    /// that cannot be shown fail the pass): how many went. Fewer than asked: the sink's `failure`
    /// set (the connection took no more), `seen` refused, or the object ended. A stream that can
    /// passes them socket to socket in the kernel (`DirectStream`); the others read them into a
    /// buffer and write it.
    func pass(_ count: Int, to sink: SocketSink, seen: ((UnsafeRawBufferPointer) -> Bool)?) throws(StorageError) -> Int
}

extension Array where Element == UInt8 {
    /// Up to `limit` bytes, as many as `fill` writes into the array's storage; nil when it writes
    /// none. (`next(limit:)` from a `next(into:)`.)
    package static func filled<Failure: Error>(limit: Int, by fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int) throws(Failure) -> [UInt8]? {
        var failure: Failure?
        let bytes = [UInt8](unsafeUninitializedCapacity: Swift.max(limit, 1)) { buffer, count in
            do throws(Failure) { count = try fill(UnsafeMutableRawBufferPointer(buffer)) } catch {
                (failure, count) = (error, 0)
            }
        }
        if let failure { throw failure }
        return bytes.isEmpty ? nil : bytes
    }
}

extension ObjectStream {
    package var keptSHA256: String? { nil }

    package func pass(_ count: Int, to sink: SocketSink, seen: ((UnsafeRawBufferPointer) -> Bool)?) throws(StorageError) -> Int {
        try copy(count, to: sink, seen: seen)
    }

    /// `pass` through a buffer: the bytes read into it (`next(into:)`), then written.
    func copy(_ count: Int, to sink: SocketSink, seen: ((UnsafeRawBufferPointer) -> Bool)?) throws(StorageError) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 20), alignment: 64)
        defer { buffer.deallocate() }
        var moved = 0
        while moved < count {
            let got = try next(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(count - moved, buffer.count)]))
            guard got > 0 else { break }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<got])
            guard seen?(bytes) ?? true, sink.write(bytes) else { break }
            moved += got
        }
        return moved
    }

    package func next(into piece: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        guard let bytes = try next(limit: piece.count) else { return 0 }
        bytes.withUnsafeBytes { piece.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return bytes.count
    }
}

/// A stream made of ranged reads, one per piece.
final class RangedReads<Store: ReadableStorage>: ObjectStream {
    private let store: Store
    private let key: String
    private var position: Int64
    private var end: Int64

    init(store: Store, key: String, range: ClosedRange<Int64>) {
        (self.store, self.key, position, end) = (store, key, range.lowerBound, range.upperBound)
    }

    func next(limit: Int) throws(StorageError) -> [UInt8]? {
        guard position <= end else { return nil }
        let asked = min(end - position + 1, Int64(max(limit, 1)))
        let bytes = try store.read(key: key, range: position...(position + asked - 1)) ?? []
        // (fewer than asked: the object's end, and the stream's)
        position = Int64(bytes.count) < asked ? end + 1 : position + asked
        return bytes.isEmpty ? nil : bytes
    }
}

/// The most one ranged read takes.
package let maximumRangeRead: Int64 = 64 << 20

/// One page of a listing.
package struct ObjectListing: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// Relative to the store's prefix, like every key the backends take.
        package var key: String
        package var size: Int64
        /// When the store last wrote the object, seconds since 1970, when it says.
        package var lastModified: Double?

        package init(key: String, size: Int64, lastModified: Double?) {
            self.key = key
            self.size = size
            self.lastModified = lastModified
        }
    }

    package var entries: [Entry]
    /// More keys follow the last one.
    package var isTruncated: Bool

    package init(entries: [Entry], isTruncated: Bool) {
        self.entries = entries
        self.isTruncated = isTruncated
    }
}

/// What a download wrote.
package struct DownloadedObject: Sendable, Equatable {
    package var size: Int64
    /// Lowercase hex SHA-256 of the bytes written.
    package var sha256: String

    package init(size: Int64, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }
}
