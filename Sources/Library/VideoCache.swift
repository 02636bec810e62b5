package import FoundationEssentials
import Synchronization
import Glibc
package import StorageUpload
internal import SystemSupport
package import Settings
package import Publishing
package import StoreValues
package import Failures
package import DurableFiles

/// Posted videos kept close for playback, in two levels: memory (small videos, LRU, bounded in
/// bytes) over disk (LRU by last use, bounded in bytes).
///
/// Files are named by the SHA-256 of the video's URL in its store, written under a temporary name
/// and renamed into place, and checked against the post's SHA-256 before first use by this
/// process: a truncated or damaged file is dropped and fetched again. Fetches of one video are
/// serialised by a lock file per video (`flock`), so concurrent requests, in this process or
/// another, download it once and the others read the result. The calls block; the kiosk makes them
/// from its own threads, never from the cooperative pool.
///
package final class VideoCache: Sendable {
    package struct Settings: Sendable, Equatable {
        package var directory: String
        package var maxDiskBytes: Int64
        package var maxMemoryBytes: Int64
        /// Videos larger than this are served from disk only.
        package var memoryEntryLimit: Int64

        package init(directory: String, maxDiskBytes: Int64 = 1024 << 20, maxMemoryBytes: Int64 = 64 << 20,
                    memoryEntryLimit: Int64 = 8 << 20) {
            self.directory = directory
            self.maxDiskBytes = maxDiskBytes
            self.maxMemoryBytes = maxMemoryBytes
            self.memoryEntryLimit = min(memoryEntryLimit, maxMemoryBytes)
        }
    }

    /// Where a video came from on this call.
    package enum Level: String, Sendable, Codable { case memory, disk, store }

    /// A verified video: always a file on disk, and its bytes when the memory level holds them.
    package struct Video: Sendable {
        package var path: String
        package var size: Int64
        package var bytes: Data?
        package var level: Level
        /// Set when a cached copy failed its check and was fetched again.
        package var replaced: Replaced?
    }

    /// Why the cached copy of a post was thrown away and fetched again.
    package enum Replaced: Sendable, Equatable, Encodable {
        /// It had `size` bytes of the `expected`.
        case wrongSize(id: String, size: Int64, expected: Int64)
        /// It had the right size and another SHA-256.
        case wrongChecksum(id: String)
    }

    /// One file of the disk level.
    package struct Entry: Sendable, Codable, Equatable {
        package var name: String
        package var bytes: Int64
        /// Last use, UTC RFC 3339.
        package var lastUsed: String
    }

    package let settings: Settings
    private struct Levels {
        /// name -> bytes, most recently used last.
        var memory: [(name: String, bytes: Data)] = []
        var memoryBytes: Int64 = 0
        /// Files this process has checked: name -> (inode, size).
        var verified: [String: (inode: UInt64, size: Int64)] = [:]
    }
    private let levels = Mutex(Levels())
    /// Videos on their way from the store, by file name: a request for one streams from it.
    private let arrivals = Mutex<[String: Arrival]>([:])

    package init(settings: Settings) {
        self.settings = settings
    }

    /// The file name of the video at `url`.
    package static func name(forURL url: String) -> String {
        FileDigest.sha256(Array(url.utf8)) + ".mp4"
    }

    /// The video of `metadata` from the cache, else from `store` (then kept).
    package func video(for metadata: PostMetadata, from store: any StorageBackend) throws(RecorderError) -> Video {
        try video(for: metadata, from: store, arrival: nil)
    }

    private func video(for metadata: PostMetadata, from store: any StorageBackend, arrival: Arrival?) throws(RecorderError) -> Video {
        let name = Self.name(forURL: store.url(forKey: metadata.key))
        if let bytes = memoryHit(name) {
            touch(path(name))
            return Video(path: path(name), size: Int64(bytes.count), bytes: bytes, level: .memory, replaced: nil)
        }
        try prepare()
        let lockFile = try FileLock(path: "\(settings.directory)/.locks/\(name)", busy: nil)
        var video: Video
        var replaced: Replaced?
        if let found = try checkedFile(name, metadata: metadata, replaced: &replaced) {
            video = found
        } else {
            video = try download(name, metadata: metadata, from: store, for: arrival)
            video.replaced = replaced
            try evict(keeping: name)
        }
        touch(video.path)
        if video.size <= settings.memoryEntryLimit, let bytes = FileSystem.dataIfReadable(video.path),
           Int64(bytes.count) == video.size {
            remember(name, bytes)
            video.bytes = bytes
        }
        _ = consume lockFile
        return video
    }

    /// What `lookUp` found: a video to serve as it is, or one arriving from the store.
    package enum Lookup: Sendable {
        case cached(Video)
        case arriving(Arrival)
    }

    /// The video of `metadata` at once when the memory level holds it or it is on its way already;
    /// otherwise its fetch (`video(for:from:)`: a disk hit, or a download) is handed to `start`,
    /// which runs it on a thread of the caller's, and its arrival is returned at once, so the caller
    /// can stream the bytes as they come.
    package func lookUp(_ metadata: PostMetadata, from store: any StorageBackend,
                        start: (@escaping @Sendable () -> Void) -> Void) -> Lookup {
        let name = Self.name(forURL: store.url(forKey: metadata.key))
        if let bytes = memoryHit(name) {
            touch(path(name))
            return .cached(Video(path: path(name), size: Int64(bytes.count), bytes: bytes, level: .memory, replaced: nil))
        }
        let (arrival, isNew) = arrivals.withLock { running -> (Arrival, Bool) in
            if let known = running[name] { return (known, false) }
            let made = Arrival(path: path(".tmp-\(name)-\(Posix.processID)-\(UInt64.random(in: 0..<UInt64.max))"), size: metadata.byteSize)
            running[name] = made
            return (made, true)
        }
        if isNew {
            start { [self] in
                let outcome: Result<Video, RecorderError>
                do throws(RecorderError) { outcome = .success(try video(for: metadata, from: store, arrival: arrival)) } catch { outcome = .failure(error) }
                arrivals.withLock { $0[name] = nil }
                arrival.end(outcome)
            }
        }
        return .arriving(arrival)
    }

    /// The files of the disk level, most recently used first.
    package func entries() -> [Entry] {
        files().sorted { $0.used > $1.used }.map { Entry(name: $0.name, bytes: $0.size, lastUsed: RFC3339.string($0.used)) }
    }

    /// Bytes the disk level holds.
    package var usedBytes: Int64 { files().reduce(0) { $0 + $1.size } }

    /// Forgets the video at `url` (memory and disk): a post an operator hid or deleted is not
    /// played from here again.
    package func remove(url: String) {
        let name = Self.name(forURL: url)
        levels.withLock { state in
            if let index = state.memory.firstIndex(where: { $0.name == name }) {
                state.memoryBytes -= Int64(state.memory[index].bytes.count)
                state.memory.remove(at: index)
            }
            state.verified[name] = nil
        }
        // Not cached on the disk either, or a file that stays only until evicted: fine both ways.
        try? Posix.unlink(path(name))
    }

    /// The cached videos last used before `cutoff` (retention.local_days), removed unless `dryRun`:
    /// the ones it removed (or would remove).
    package func removeUnused(before cutoff: Date, dryRun: Bool) -> [Entry] {
        let old = files().filter { $0.used < cutoff }.sorted { $0.used < $1.used }
        var gone: [Entry] = []
        for file in old {
            if !dryRun {
                // (one that cannot go now is left for the next purge, and not reported gone)
                guard (try? Posix.unlink(path(file.name))) != nil else { continue }
                forget(file.name)
            }
            gone.append(Entry(name: file.name, bytes: file.size, lastUsed: RFC3339.string(file.used)))
        }
        return gone
    }

    /// What `clear` removed.
    package struct ClearReport: Sendable, Codable, Equatable {
        package var files: Int
        package var bytes: Int64
    }

    /// Removes every cached video (and leftovers of interrupted downloads) and empties the memory
    /// level. Counts exactly the bytes of the files it removed.
    package func clear() -> ClearReport {
        levels.withLock { state in
            state.memory.removeAll()
            state.memoryBytes = 0
            state.verified.removeAll()
        }
        var report = ClearReport(files: 0, bytes: 0)
        let names = FileSystem.names(in: settings.directory)
        for name in names where name.hasSuffix(".mp4") || name.hasSuffix(Self.gifSuffix) || name.hasPrefix(".tmp-") {
            let file = path(name)
            guard let size = FileSystem.size(of: file) else { continue }
            // (only what went is counted: the report says exactly what was freed)
            if (try? Posix.unlink(file)) != nil {
                report.files += 1
                report.bytes += size
            }
        }
        return report
    }

    // MARK: - Disk level

    func path(_ name: String) -> String { "\(settings.directory)/\(name)" }

    func prepare() throws(RecorderError) {
        do throws(StorageError) {
            try LocalFiles.createDirectories(settings.directory + "/.locks")
        } catch {
            throw .cache(.unusable(directory: settings.directory, error))
        }
    }

    /// The cached file when it is whole: the right size, and the right SHA-256 the first time this
    /// process uses it. A bad file is removed (and named in `replaced`).
    private func checkedFile(_ name: String, metadata: PostMetadata, replaced: inout Replaced?) throws(RecorderError) -> Video? {
        let file = path(name)
        guard let status = FileSystem.status(of: file) else { return nil }
        let size = status.size, inode = status.inode
        if size == metadata.byteSize {
            if let known = levels.withLock({ $0.verified[name] }), known.inode == inode, known.size == size {
                return Video(path: file, size: size, bytes: nil, level: .disk, replaced: nil)
            }
            if let digest = try? FileDigest.compute(path: file), digest.sha256 == metadata.sha256 {
                levels.withLock { $0.verified[name] = (inode, size) }
                return Video(path: file, size: size, bytes: nil, level: .disk, replaced: nil)
            }
            replaced = .wrongChecksum(id: metadata.id)
        } else {
            replaced = .wrongSize(id: metadata.id, size: size, expected: metadata.byteSize)
        }
        // The fetch renames a good copy over it; until then it is not used (nor verified).
        try? Posix.unlink(file)
        return nil
    }

    /// Downloads into a temporary file (`arrival`'s, telling it of every write, for its readers; a new
    /// name without one), checks size and SHA-256, then renames it into place.
    private func download(_ name: String, metadata: PostMetadata, from store: any StorageBackend, for arrival: Arrival?) throws(RecorderError) -> Video {
        let final = path(name)
        let temp = arrival?.path ?? path(".tmp-\(name)-\(Posix.processID)-\(UInt64.random(in: 0..<UInt64.max))")
        let fd: Int32
        do throws(StorageError) {
            fd = try LocalFiles.run("create", temp, elsewhere: .cache) { () throws(Descriptors.Errno) in try Posix.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644) }
        } catch {
            throw RecorderError(error)
        }
        var closed = false
        defer {
            // A fetch that failed: what it wrote is not kept, so close has nothing to report.
            if !closed { Posix.closeAfterUse(fd) }
            // Gone already when renamed into place; else the partial download goes (best effort:
            // an arrival's is named by this process, and `clear` removes `.tmp-` leftovers).
            try? Posix.unlink(temp)
        }
        let got: DownloadedObject?
        do throws(StorageError) {
            got = try store.download(key: metadata.key, into: fd, progress: arrival.map { $0.arrived })
        } catch {
            throw .cache(.cannotFetch(id: metadata.id, error))
        }
        guard let got else { throw .cache(.videoNotInStore(id: metadata.id, key: metadata.key, store: store.location)) }
        guard got.size == metadata.byteSize, got.sha256 == metadata.sha256 else {
            throw .cache(.mismatch(id: metadata.id, size: got.size, sha256: got.sha256, expectedSize: metadata.byteSize,
                                   expectedSHA256: metadata.sha256))
        }
        closed = true
        do throws(StorageError) {
            try LocalFiles.run("store", final, elsewhere: .cache) { () throws(Descriptors.Errno) in try Posix.close(fd) }
        } catch {
            throw RecorderError(error)
        }
        do throws(StorageError) {
            try LocalFiles.run("store", final, elsewhere: .cache) { () throws(Descriptors.Errno) in try Posix.rename(temp, to: final) }
        } catch {
            throw RecorderError(error)
        }
        let inode = FileSystem.status(of: final)?.inode ?? 0
        levels.withLock { $0.verified[name] = (inode, got.size) }
        return Video(path: final, size: got.size, bytes: nil, level: .store, replaced: nil)
    }

    private struct CachedFile {
        var name: String
        var size: Int64
        var used: Date
    }

    private func files() -> [CachedFile] {
        let names = FileSystem.names(in: settings.directory)
        // (a boomerang's GIF is kept and evicted as a video is: `loopGIF`)
        return names.filter { ($0.hasSuffix(".mp4") || $0.hasSuffix(Self.gifSuffix)) && !$0.hasPrefix(".") }.compactMap { name in
            guard let status = FileSystem.status(of: path(name)) else { return nil }
            return CachedFile(name: name, size: status.size, used: Date(timeIntervalSince1970: status.modified))
        }
    }

    /// Removes the least recently used files until the disk level fits its bound. The file just
    /// fetched stays even when it alone is larger than the bound.
    func evict(keeping kept: String) throws(RecorderError) {
        var all = files()
        var total = all.reduce(0) { $0 + $1.size }
        guard total > settings.maxDiskBytes else { return }
        all.sort { ($0.used, $0.name) < ($1.used, $1.name) }
        for file in all where file.name != kept {
            guard total > settings.maxDiskBytes else { break }
            // (one that cannot go is not counted as freed; the next file is tried)
            if (try? Posix.unlink(path(file.name))) != nil {
                total -= file.size
                forget(file.name)
            }
        }
    }

    /// Marks a file as just used (its modification time orders the disk level's LRU). Best effort:
    /// a file that cannot be touched is only evicted sooner.
    func touch(_ file: String) {
        // (as said above: best effort)
        try? Posix.touch(file)
    }

    // MARK: - Memory level

    private func memoryHit(_ name: String) -> Data? {
        levels.withLock { state in
            guard let index = state.memory.firstIndex(where: { $0.name == name }) else { return nil }
            let entry = state.memory.remove(at: index)
            state.memory.append(entry)
            return entry.bytes
        }
    }

    private func remember(_ name: String, _ bytes: Data) {
        levels.withLock { state in
            if let index = state.memory.firstIndex(where: { $0.name == name }) {
                state.memoryBytes -= Int64(state.memory.remove(at: index).bytes.count)
            }
            state.memory.append((name, bytes))
            state.memoryBytes += Int64(bytes.count)
            while state.memoryBytes > settings.maxMemoryBytes, let oldest = state.memory.first {
                state.memory.removeFirst()
                state.memoryBytes -= Int64(oldest.bytes.count)
            }
        }
    }

    private func forget(_ name: String) {
        levels.withLock { state in
            state.verified[name] = nil
            if let index = state.memory.firstIndex(where: { $0.name == name }) {
                state.memoryBytes -= Int64(state.memory.remove(at: index).bytes.count)
            }
        }
    }
}
