import FoundationEssentials
#if canImport(Glibc)
package import Glibc
internal import SystemSupport
#endif

/// Crash-safe file operations for the stores, the part journal and the outbox: write to a temp
/// name, fsync, rename (or link, to refuse overwriting), fsync the directory.
package enum LocalFiles {
    /// Replaces `path` with `bytes` atomically and durably.
    package static func writeDurably(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let temp = temporaryPath(for: path, kind: "tmp")
        removeAbandonedTemporaries(in: FilePaths.directory(of: path), kind: "tmp", name: FilePaths.name(of: path))
        try writeSynced(bytes, to: temp)
        do throws(StorageError) {
            try call("rename", temp) { rename(temp, path) }
        } catch {
            unlink(temp)
            throw error
        }
        try syncDirectory(of: path)
    }

    static func writeSynced(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let fd = try call("create", path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        do throws(StorageError) {
            if let code = bytes.withUnsafeBytes({ Descriptors.writeAll(fd, $0) }) { throw error("write", path, code: code) }
            try call("fsync", path) { fsync(fd) }
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        close(fd)
    }

    /// Copies `source` to a new file `destination` (which must not exist) and fsyncs it. On failure
    /// the partial copy is removed.
    package static func copySynced(from source: String, to destination: String) throws(StorageError) {
        let out = try call("create", destination) { open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        do throws(StorageError) {
            try FileChunks.forEach(path: source, offset: 0, length: nil) { chunk throws(StorageError) in
                if let code = Descriptors.writeAll(out, chunk) { throw error("write", destination, code: code) }
                UploadMeter.add(chunk.count)
            }
            try call("fsync", destination) { fsync(out) }
        } catch {
            close(out)
            unlink(destination)
            throw error
        }
        close(out)
    }

    /// Where this process writes `path` before it is renamed or linked into place:
    /// `.<kind>-<name>-<pid>` beside it. The leading dot keeps it out of listings (a store's, the
    /// feed's), so a write cut off by kill -9 or a power cut never shows as an object.
    package static func temporaryPath(for path: String, kind: String) -> String {
        let directory = FilePaths.directory(of: path)
        return "\(directory.isEmpty ? "." : directory)/.\(kind)-\(FilePaths.name(of: path))-\(getpid())"
    }

    /// Removes, in `directory`, the temporaries of `kind` (`temporaryPath`; of the target `name`
    /// only, when given) that a writer which is gone left behind (kill -9, a crash, a power cut):
    /// its process no longer runs, or the file is older than this boot (after a power cut, the pid
    /// may belong to another process by now). A live writer's is never touched. Best effort: what
    /// cannot be removed stays hidden, as it was.
    package static func removeAbandonedTemporaries(in directory: String, kind: String, name: String? = nil) {
        let folder = directory.isEmpty ? "." : directory
        let prefix = ".\(kind)-" + (name.map { "\($0)-" } ?? "")
        var now = timespec(), sinceBoot = timespec()
        let bootTime = clock_gettime(CLOCK_REALTIME, &now) == 0 && clock_gettime(CLOCK_BOOTTIME, &sinceBoot) == 0
            ? Double(now.tv_sec - sinceBoot.tv_sec) : nil
        for entry in DirectoryListing.namesIfReadable(folder) where entry.hasPrefix(prefix) {
            guard let dash = entry.lastIndex(of: "-"), let pid = Int32(entry[entry.index(after: dash)...]), pid > 0, pid != getpid() else { continue }
            let gone = kill(pid, 0) != 0 && errno == ESRCH
            let beforeBoot = bootTime.map { boot in status(of: "\(folder)/\(entry)").map { $0.modified < boot } ?? false } ?? false
            if gone || beforeBoot { unlink("\(folder)/\(entry)") }
        }
    }

    /// mkdir(2) of one directory; one that exists already is fine.
    package static func makeDirectory(_ path: String, mode: mode_t, operation: String = "create",
                                      elsewhere: String = "another directory in the configuration") throws(StorageError) {
        do throws(Descriptors.Errno) { try SystemCall.run { mkdir(path, mode) } } catch {
            if error.code != EEXIST { throw self.error(operation, path, code: error.code, elsewhere: elsewhere) }
        }
    }

    /// Runs a system call on `path` (retried on EINTR); a failure becomes the StorageError its
    /// errno, captured at the call, describes.
    @discardableResult
    package static func call<T: FixedWidthInteger>(_ operation: String, _ path: String,
                                                  elsewhere: String = "another directory in the configuration",
                                                  _ body: () -> T) throws(StorageError) -> T {
        do throws(Descriptors.Errno) { return try SystemCall.run(body) } catch {
            throw self.error(operation, path, code: error.code, elsewhere: elsewhere)
        }
    }

    /// Whether `path` exists: false when it (or a directory above it) does not; any other failure
    /// to look (no permission, an I/O error) is thrown, not taken for absence.
    package static func exists(_ path: String, operation: String = "stat") throws(StorageError) -> Bool {
        do throws(Descriptors.Errno) {
            try SystemCall.run { access(path, F_OK) }
            return true
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return false }
            throw self.error(operation, path, code: error.code)
        }
    }

    /// mkdir -p with the real reason on failure (a full disk says so, not "permission denied").
    package static func createDirectories(_ path: String, mode: mode_t = 0o755,
                                         elsewhere: String = "another directory in the configuration") throws(StorageError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            try makeDirectory(built, mode: mode, operation: "create the directory", elsewhere: elsewhere)
        }
    }

    /// The size of the file at `path`, or nil when it cannot be read.
    package static func size(of path: String) -> Int64? { status(of: path)?.size }

    /// What stat(2) says of the file at `path`, or nil when it cannot be read.
    package static func status(of path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(size: Int64(info.st_size), inode: UInt64(info.st_ino),
                          modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9,
                          isDirectory: info.st_mode & S_IFMT == S_IFDIR)
    }

    /// Free bytes (for this user) on the file system that holds `path`, or that will hold it: a
    /// directory not made yet is asked of its nearest existing parent.
    package static func freeBytes(_ path: String) -> Int64? {
        var probe = path
        while true {
            var info = statvfs()
            if statvfs(probe, &info) == 0 { return Int64(info.f_bavail) * Int64(info.f_frsize) }
            guard let slash = probe.lastIndex(of: "/"), slash != probe.startIndex else { return nil }
            probe = String(probe[..<slash])
        }
    }

    /// fsync(2) of the directory that holds `path`, so a name just made or changed survives a power cut.
    package static func syncDirectory(of path: String) throws(StorageError) {
        let dir = FilePaths.directory(of: path)
        try syncFile(dir.isEmpty ? "." : dir)
    }

    /// fsync(2) of a file or directory: its data (and, for a directory, its names) on the disk, or
    /// the reason it is not.
    package static func syncFile(_ path: String) throws(StorageError) {
        let fd = try call("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        try call("fsync", path) { fsync(fd) }
    }

    /// The failure errno `code` (captured at the call that failed) describes, with the fix:
    /// `elsewhere` says where another location is chosen.
    package static func error(_ operation: String, _ path: String, code: Int32,
                             elsewhere: String = "another directory in the configuration") -> StorageError {
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
