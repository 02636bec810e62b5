import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
package import StoreValues

/// A store in a local directory, with the same layout as a bucket (`<root>/<prefix><key>`) and the
/// same rules: an object appears whole or not at all (written to a temp name, fsynced, then linked
/// into place, which also refuses to overwrite), and is confirmed by re-reading its checksum.
package struct LocalDirectoryBackend: StorageBackend {
    package let root: String
    package let prefix: String
    /// Whether a missing `root` is made (the default location) or an error (a configured path: an
    /// unmounted disk must not fill the one below its mount point).
    package let createsRoot: Bool

    package init(root: String, prefix: String = "", createsRoot: Bool = true) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.prefix = prefix
        self.createsRoot = createsRoot
    }

    package var location: String { root }

    package var destination: StoreDestination { .local(path: root, prefix: prefix) }

    /// Where `key` lives: always inside the root. A `..` in a key (a store document can name any key)
    /// is a file name here, never a step out of the store.
    func path(forKey key: String) -> String {
        let inside = (prefix + key).split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == ".." ? "%2E%2E" : String($0) }.joined(separator: "/")
        return "\(root)/\(inside)"
    }

    package func url(forKey key: String) -> String {
        URL(filePath: path(forKey: key), directoryHint: .notDirectory).absoluteString
    }

    package func prepare() throws(StorageError) {
        try ensureRoot()
        do throws(Descriptors.Errno) { try Posix.access(root, W_OK | X_OK) } catch {
            // (root may write anywhere but on a read-only file system, which permissions do not fix)
            if error.code == EROFS {
                throw StorageError(.local(errno: EROFS), .readOnly(root: root), retryable: false)
            }
            throw StorageError(.accessDenied, .notWritable(root: root), retryable: false)
        }
        removeAbandonedCopies()
    }

    /// An object write cut off by kill -9 or a power cut leaves its hidden copy (`.incoming-` of a
    /// video, `.tmp-` of a document) in the folder of its key, even when the object itself was
    /// linked into place just before: cleared before the next upload, a live writer's left alone.
    func removeAbandonedCopies() {
        let top = path(forKey: "").dropLastSlash
        for folder in DirectoryListing.namesIfReadable(top) where !folder.hasPrefix(".") {
            let directory = "\(top)/\(folder)"
            guard FileSystem.status(of: directory)?.isDirectory == true else { continue }
            for kind in ["incoming", "tmp"] { LocalFiles.removeAbandonedTemporaries(in: directory, kind: kind) }
        }
    }

    package func partSize(forSize size: Int64) -> Int64? { nil }

    package func exists(key: String) throws(StorageError) -> Bool {
        try LocalFiles.exists(path(forKey: key))
    }

    package func stat(key: String) throws(StorageError) -> StoredObject? {
        let path = path(forKey: key)
        guard try LocalFiles.exists(path) else { return nil }
        let digest = try FileDigest.compute(path: path)
        return StoredObject(size: digest.size, etag: digest.md5, sha256: digest.sha256)
    }

    @discardableResult
    package func upload(path source: String, key: String, contentType: String, digest: FileDigest,
                       journal: String) throws(StorageError) -> String? {
        let destination = path(forKey: key)
        let directory = FilePaths.directory(of: destination)
        try ensureRoot()
        try LocalFiles.createDirectories(directory)
        let temp = LocalFiles.temporaryPath(for: destination, kind: "incoming")
        // This process's own copy from an attempt that failed: copySynced creates it anew (O_EXCL).
        try? Posix.unlink(temp)
        try LocalFiles.copySynced(from: source, to: temp)
        // Linked or not, the copy's name goes; one left is hidden and cleared at the next prepare.
        defer { try? Posix.unlink(temp) }
        // link(2) fails with EEXIST rather than replacing what is there.
        do throws(Descriptors.Errno) { try Posix.link(temp, to: destination) } catch {
            guard error.code == EEXIST else { throw LocalFiles.error("link", destination, code: error.code) }
            if let existing = try stat(key: key), existing.sha256 == digest.sha256 { return nil }
            throw StorageError(.mismatch, .existsWithOtherContent(path: destination), retryable: false)
        }
        try LocalFiles.syncDirectory(of: destination)
        return nil
    }

    package func matches(_ object: StoredObject, path: String, digest: FileDigest) throws(StorageError) -> Bool {
        object.size == digest.size && object.sha256 == digest.sha256
    }
}

extension LocalDirectoryBackend {
    /// The store's directory exists and is one, or is made when `createsRoot`.
    func ensureRoot() throws(StorageError) {
        if let status = FileSystem.status(of: root) {
            guard status.isDirectory else {
                throw StorageError(.local(errno: ENOTDIR), .notADirectory(root: root), retryable: false, advice: [SettingAdvice(.storeDirectory, "DIRECTORY", "with a directory")])
            }
        } else if createsRoot {
            try LocalFiles.createDirectories(root, elsewhere: .storeDirectory)
        } else {
            // (no advice here: what helps depends on whether the store ever took a post, which
            // the outbox knows; `PostFailure.storeMissing` offers to create one it never saw)
            throw StorageError(.local(errno: ENOENT), .storeMissing(root: root), retryable: false)
        }
    }

    /// A directory listing of the key's folder, sorted by byte order as S3 sorts keys; names
    /// starting with "." are writes in progress and are left out.
    package func list(prefix: String, startAfter: String?, maxKeys: Int) throws(StorageError) -> ObjectListing {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[..<$0]) } ?? ""
        let directory = folder.isEmpty ? path(forKey: "").dropLastSlash : path(forKey: folder)
        let names: [String]
        do throws(Descriptors.Errno) {
            names = try DirectoryListing.names(in: directory)
        } catch {
            // A folder nothing was stored in yet is an empty listing; a store directory that is not
            // there (a typo, a disk not mounted) is not an empty store; any other failure keeps its errno.
            if error.code == ENOENT {
                if FileSystem.status(of: root) == nil && !createsRoot { try ensureRoot() }
                return ObjectListing(entries: [], isTruncated: false)
            }
            throw LocalFiles.error("list", directory, code: error.code)
        }
        let limit = min(max(maxKeys, 1), 1000)
        var keys = names.filter { !$0.hasPrefix(".") }.map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
            .filter { key in key.hasPrefix(prefix) && (startAfter.map { Array($0.utf8).lexicographicallyPrecedes(Array(key.utf8)) } ?? true) }
        keys.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let page = keys.prefix(limit)
        let entries = page.map { key -> ObjectListing.Entry in
            let status = FileSystem.status(of: path(forKey: key))
            return ObjectListing.Entry(key: key, size: status?.size ?? -1, lastModified: status?.modified)
        }
        return ObjectListing(entries: entries, isTruncated: keys.count > limit)
    }

    package func read(key: String, limit: Int) throws(StorageError) -> [UInt8]? {
        let path = path(forKey: key)
        guard try LocalFiles.exists(path, operation: "read"), let size = FileSystem.size(of: path) else { return nil }
        guard size <= Int64(limit) else {
            throw StorageError(.mismatch, .tooLarge(path, limit: limit), retryable: false)
        }
        var bytes: [UInt8] = []
        try FileChunks.forEach(path: path, offset: 0, length: nil) { chunk in bytes.append(contentsOf: chunk) }
        return bytes
    }

    package func read(key: String, range: ClosedRange<Int64>) throws(StorageError) -> [UInt8]? {
        let path = path(forKey: key)
        guard try LocalFiles.exists(path, operation: "read"), let size = FileSystem.size(of: path) else { return nil }
        guard range.lowerBound >= 0, range.lowerBound < max(size, 1), Int64(range.count) <= maximumRangeRead else {
            throw StorageError(.mismatch, .rangeNotInObject(target: path, size: size, from: range.lowerBound, to: range.upperBound), retryable: false)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(min(Int64(range.count), size - range.lowerBound)))
        try FileChunks.forEach(path: path, offset: range.lowerBound, length: min(Int64(range.count), size - range.lowerBound)) { chunk in
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    package func download(key: String, into descriptor: Int32, progress: ((_ written: Int64) -> Void)?) throws(StorageError) -> DownloadedObject? {
        let path = path(forKey: key)
        guard try LocalFiles.exists(path, operation: "read") else { return nil }
        var hasher = SHA256Stream()
        var written: Int64 = 0
        let size = try FileChunks.forEach(path: path, offset: 0, length: nil) { chunk throws(StorageError) in
            try LocalFiles.run("write", "the download of \(key)") { () throws(Descriptors.Errno) in try Posix.writeAll(descriptor, chunk) }
            hasher.update(chunk)
            written += Int64(chunk.count)
            progress?(written)
        }
        return DownloadedObject(size: size, sha256: hasher.finalize())
    }

    package func write(_ bytes: [UInt8], key: String, contentType: String) throws(StorageError) {
        let destination = path(forKey: key)
        try ensureRoot()
        try LocalFiles.createDirectories(FilePaths.directory(of: destination))
        try LocalFiles.writeDurably(bytes, to: destination)
    }

    package func delete(key: String) throws(StorageError) {
        let path = path(forKey: key)
        guard try LocalFiles.exists(path, operation: "delete") else { return }
        try LocalFiles.run("delete", path) { () throws(Descriptors.Errno) in try Posix.unlink(path) }
        // (the removal is durable too: a power cut must not bring a deleted post back)
        try LocalFiles.syncDirectory(of: path)
    }
}

private extension String {
    var dropLastSlash: String { hasSuffix("/") && count > 1 ? String(dropLast()) : self }
}
