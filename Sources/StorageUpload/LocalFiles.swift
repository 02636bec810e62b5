import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Crash-safe file operations for the stores, the part journal and the outbox: write to a temp
/// name, fsync, rename (or link, to refuse overwriting), fsync the directory.
public enum LocalFiles {
    /// Replaces `path` with `bytes` atomically and durably.
    public static func writeDurably(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let temp = "\(path).tmp-\(getpid())"
        try writeSynced(bytes, to: temp)
        guard rename(temp, path) == 0 else {
            let e = error("rename", temp)
            unlink(temp)
            throw e
        }
        syncDirectory(of: path)
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; the errno of a failure, or nil.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    static func writeSynced(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw error("create", path) }
        var failed = bytes.withUnsafeBytes { writeAll(fd, $0) } != nil
        if !failed && fsync(fd) != 0 { failed = true }
        let saved = errno
        close(fd)
        if failed {
            unlink(path)
            errno = saved
            throw error("write", path)
        }
    }

    /// Copies `source` to a new file `destination` (which must not exist) and fsyncs it. On failure
    /// the partial copy is removed.
    public static func copySynced(from source: String, to destination: String) throws(StorageError) {
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard out >= 0 else { throw error("create", destination) }
        do throws(StorageError) {
            try FileChunks.forEach(path: source, offset: 0, length: nil) { chunk throws(StorageError) in
                if let code = writeAll(out, chunk) {
                    errno = code
                    throw error("write", destination)
                }
                UploadMeter.add(chunk.count)
            }
            guard fsync(out) == 0 else { throw error("fsync", destination) }
        } catch {
            close(out)
            unlink(destination)
            throw error
        }
        close(out)
    }

    /// mkdir -p with the real reason on failure (a full disk says so, not "permission denied").
    public static func createDirectories(_ path: String) throws(StorageError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST { throw error("create the directory", built) }
        }
    }

    /// The size of the file at `path`, or nil when it cannot be read.
    public static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    public static func syncDirectory(of path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        syncFile(dir.isEmpty ? "." : dir)
    }

    /// fsync(2) of a file or directory, best effort (the caller has nothing better to do on failure).
    public static func syncFile(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// The failure `errno` describes, with the fix: `elsewhere` says where another location is chosen.
    public static func error(_ operation: String, _ path: String,
                             elsewhere: String = "another directory in the configuration") -> StorageError {
        let code = errno
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return StorageError(.local(errno: code), "the disk is full (\(operation) \(path): \(reason)). Free some space and try again; nothing was lost.", retryable: false)
        case EACCES, EPERM, EROFS:
            return StorageError(.local(errno: code), "cannot \(operation) \(path): \(reason). Make it writable for this user or choose \(elsewhere).", retryable: false)
        case ENOENT, ENOTDIR:
            return StorageError(.local(errno: code), "cannot \(operation) \(path): \(reason). Create its parent directory or choose \(elsewhere).", retryable: false)
        default:
            return StorageError(.local(errno: code), "cannot \(operation) \(path): \(reason).", retryable: false)
        }
    }
}
