import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A store in a local directory, with the same layout as a bucket (`<root>/<prefix><key>`) and the
/// same rules: an object appears whole or not at all (written to a temp name, fsynced, then linked
/// into place, which also refuses to overwrite), and is confirmed by re-reading its checksum.
public struct LocalDirectoryBackend: StorageBackend {
    public let root: String
    public let prefix: String

    public init(root: String, prefix: String = "") {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.prefix = prefix
    }

    public var location: String { root }

    func path(forKey key: String) -> String { "\(root)/\(prefix)\(key)" }

    public func url(forKey key: String) -> String {
        "file://" + (path(forKey: key).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path(forKey: key))
    }

    public func prepare() throws(StorageError) {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw StorageError(.missingContainer, "cannot create the store directory \(root): \(error.localizedDescription). Create it, or set local.path to a writable directory.",
                               retryable: false)
        }
        guard access(root, W_OK | X_OK) == 0 else {
            throw StorageError(.accessDenied, "the store directory \(root) is not writable by this user. Fix its permissions or set local.path to another directory.",
                               retryable: false)
        }
    }

    public func partSize(forSize size: Int64) -> Int64? { nil }

    public func stat(key: String) throws(StorageError) -> StoredObject? {
        let path = path(forKey: key)
        guard access(path, F_OK) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw LocalFiles.error("stat", path)
        }
        let digest = try FileDigest.compute(path: path)
        return StoredObject(size: digest.size, etag: digest.md5, sha256: digest.sha256)
    }

    @discardableResult
    public func upload(path source: String, key: String, contentType: String, digest: FileDigest,
                       journal: String) throws(StorageError) -> String? {
        let destination = path(forKey: key)
        let directory = (destination as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StorageError(.local(errno: EACCES), "cannot create \(directory): \(error.localizedDescription). Make the store directory writable.",
                               retryable: false)
        }
        let temp = "\(directory)/.incoming-\((key as NSString).lastPathComponent)-\(getpid())"
        unlink(temp)
        try LocalFiles.copySynced(from: source, to: temp)
        defer { unlink(temp) }
        // link(2) fails with EEXIST rather than replacing what is there.
        if link(temp, destination) != 0 {
            if errno == EEXIST {
                if let existing = try stat(key: key), existing.sha256 == digest.sha256 { return nil }
                throw StorageError(.mismatch, "\(destination) already exists with other content; it was not overwritten.", retryable: false)
            }
            throw LocalFiles.error("link", destination)
        }
        LocalFiles.syncDirectory(of: destination)
        return nil
    }

    public func matches(_ object: StoredObject, path: String, digest: FileDigest) throws(StorageError) -> Bool {
        object.size == digest.size && object.sha256 == digest.sha256
    }
}
