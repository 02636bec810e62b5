import FoundationEssentials
#if canImport(Glibc)
import Glibc
import SystemSupport
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

    static func writeSynced(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw error("create", path) }
        var failed = bytes.withUnsafeBytes { Descriptors.writeAll(fd, $0) } != nil
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
                if let code = Descriptors.writeAll(out, chunk) {
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
    public static func createDirectories(_ path: String, mode: mode_t = 0o755,
                                         elsewhere: String = "another directory in the configuration") throws(StorageError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, mode) != 0 && errno != EEXIST { throw error("create the directory", built, elsewhere: elsewhere) }
        }
    }

    /// The size of the file at `path`, or nil when it cannot be read.
    public static func size(of path: String) -> Int64? { status(of: path)?.size }

    /// What stat(2) says of the file at `path`, or nil when it cannot be read.
    public static func status(of path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(size: Int64(info.st_size), inode: UInt64(info.st_ino),
                          modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9,
                          isDirectory: info.st_mode & S_IFMT == S_IFDIR)
    }

    /// Free bytes (for this user) on the file system that holds `path`, or that will hold it: a
    /// directory not made yet is asked of its nearest existing parent.
    public static func freeBytes(_ path: String) -> Int64? {
        var probe = path
        while true {
            var info = statvfs()
            if statvfs(probe, &info) == 0 { return Int64(info.f_bavail) * Int64(info.f_frsize) }
            guard let slash = probe.lastIndex(of: "/"), slash != probe.startIndex else { return nil }
            probe = String(probe[..<slash])
        }
    }

    public static func syncDirectory(of path: String) {
        let dir = FilePaths.directory(of: path)
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
