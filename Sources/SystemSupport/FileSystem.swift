import Glibc

/// Crash-safe file operations, the one home of a durable write for every module: write to a
/// temporary name, fsync, rename (or link, to refuse overwriting), fsync the directory. Every
/// fsync is checked: a write the disk did not take is a failure, not a file that may vanish later.
/// The calls are `Posix`'s; a failure says which operation on which path, with its errno, and the
/// caller words it (`LocalFiles.error` for the stores, `DurableFile` for the workspace and outbox).
package enum FileSystem {
    /// A file system operation that failed: what was being done ("create", "fsync", "rename"...,
    /// the word the caller's message uses), on which path, and errno as the call left it.
    package struct Failure: Error, Sendable, Equatable, Encodable {
        package var operation: String
        package var path: String
        package var errno: Descriptors.Errno

        package init(_ operation: String, _ path: String, _ errno: Descriptors.Errno) {
            self.operation = operation
            self.path = path
            self.errno = errno
        }
    }

    /// Runs `body` (a `Posix` call on `path`); its errno becomes a `Failure` saying `operation`.
    @discardableResult
    package static func run<T>(_ operation: String, _ path: String, _ body: () throws(Descriptors.Errno) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw Failure(operation, path, error) }
    }

    /// Replaces `path` with `bytes` atomically and durably.
    package static func writeDurably(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temp = temporaryPath(for: path, kind: "tmp")
        removeAbandonedTemporaries(in: FilePaths.directory(of: path), kind: "tmp", name: FilePaths.name(of: path))
        try writeSynced(bytes, to: temp)
        do throws(Failure) {
            try run("rename", temp) { () throws(Descriptors.Errno) in try Posix.rename(temp, to: path) }
        } catch {
            // The rename's failure is the one to report; a temporary left over is hidden and
            // removed by the next write of this file (removeAbandonedTemporaries).
            try? Posix.unlink(temp)
            throw error
        }
        try syncDirectory(of: path)
    }

    /// Writes `bytes` to a new or truncated file at `path` and fsyncs it; on failure the file is removed.
    package static func writeSynced(_ bytes: [UInt8], to path: String) throws(Failure) {
        let fd = try run("create", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644) }
        do throws(Failure) {
            try run("write", path) { () throws(Descriptors.Errno) in try Posix.writeAll(fd, bytes) }
            try run("fsync", path) { () throws(Descriptors.Errno) in try Posix.fsync(fd) }
        } catch {
            Posix.closeAfterUse(fd)
            // The write's failure is the one to report; a partial file must not stay behind.
            try? Posix.unlink(path)
            throw error
        }
        // (fsync succeeded: nothing close could report concerns this file's data)
        Posix.closeAfterUse(fd)
    }

    /// rename(2), then an fsync of the destination's directory, so the new name survives a power cut.
    package static func renameDurably(_ from: String, to: String, operation: String = "rename") throws(Failure) {
        try run(operation, from) { () throws(Descriptors.Errno) in try Posix.rename(from, to: to) }
        try syncDirectory(of: to)
    }

    /// fsync(2) of the directory that holds `path`, so a name just made or changed survives a power cut.
    package static func syncDirectory(of path: String) throws(Failure) {
        let directory = FilePaths.directory(of: path)
        try syncFile(directory.isEmpty ? "." : directory)
    }

    /// fsync(2) of a file or directory: its data (and, for a directory, its names) on the disk, or
    /// the reason it is not.
    package static func syncFile(_ path: String) throws(Failure) {
        let fd = try run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDONLY | O_CLOEXEC) }
        defer { Posix.closeAfterUse(fd) }
        try run("fsync", path) { () throws(Descriptors.Errno) in try Posix.fsync(fd) }
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
            // Best effort, as said above: one that stays is hidden and tried again next time.
            if gone || beforeBoot { try? Posix.unlink("\(folder)/\(entry)") }
        }
    }

    /// mkdir(2) of one directory; one that exists already is fine.
    package static func makeDirectory(_ path: String, mode: UInt32, operation: String = "create") throws(Failure) {
        do throws(Descriptors.Errno) { try Posix.mkdir(path, mode: mode) } catch {
            if error.code != EEXIST { throw Failure(operation, path, error) }
        }
    }

    /// Removes a scratch directory (one level: its files, then itself). Best effort: it is made
    /// only for one piece of work and removed again before the next is made there, so what stays
    /// (a file in use, a failing disk) is tried again then.
    package static func removeScratch(_ path: String) {
        for name in DirectoryListing.namesIfReadable(path) { try? Posix.unlink("\(path)/\(name)") }
        try? Posix.rmdir(path)
    }

    /// mkdir -p with the real reason on failure (a full disk says so, not "permission denied").
    package static func createDirectories(_ path: String, mode: UInt32 = 0o755) throws(Failure) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            try makeDirectory(built, mode: mode, operation: "create the directory")
        }
    }

    /// Whether `path` exists: false when it (or a directory above it) does not; any other failure
    /// to look (no permission, an I/O error) is thrown, not taken for absence.
    package static func exists(_ path: String, operation: String = "stat") throws(Failure) -> Bool {
        do throws(Descriptors.Errno) {
            try Posix.access(path, F_OK)
            return true
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return false }
            throw Failure(operation, path, error)
        }
    }

    /// What stat(2) says of the file at `path`, or nil when it cannot be read.
    package static func status(of path: String) -> FileStatus? {
        try? Posix.status(of: path)
    }

    /// The size of the file at `path`, or nil when it cannot be read.
    package static func size(of path: String) -> Int64? { status(of: path)?.size }

    /// Free bytes (for this user) on the file system that holds `path`, or that will hold it: a
    /// directory not made yet is asked of its nearest existing parent.
    package static func freeBytes(_ path: String) -> Int64? {
        var probe = path
        while true {
            if let free = try? Posix.freeBytes(probe) { return free }
            guard let slash = probe.lastIndex(of: "/"), slash != probe.startIndex else { return nil }
            probe = String(probe[..<slash])
        }
    }
}
