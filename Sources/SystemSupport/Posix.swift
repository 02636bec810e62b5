import Glibc
internal import CProcess

/// The file system's system calls, in one place (as swift-nio's `Posix` in NIOPosix/System.swift):
/// each goes through `SystemCall.run`, so errno is captured right after the call that failed and
/// EINTR is retried, and a failure is thrown as the typed `Descriptors.Errno`. What a failure
/// means (its words, its fix) is the caller's to say: `LocalFiles.error` for the stores and
/// `DurableFile` for the workspace and outbox wrap these with the operation and the path.
///
/// Paths are Swift strings and a file's facts are `FileStatus`: no C type leaves this module.
/// Device calls (ioctl, poll on a camera, ALSA) stay in the module that owns their C library.
package enum Posix {
    /// A `Posix` call (or a few) whose failure a caller words with the operation and the path.
    package typealias Call<T> = () throws(Descriptors.Errno) -> T

    /// open(2); `mode` for a file it creates (in a directory shared with a service, the file
    /// takes the directory's owner or group: `SharedDirectory`).
    package static func open(_ path: String, _ flags: Int32, mode: UInt32 = 0) throws(Descriptors.Errno) -> Int32 {
        guard flags & O_CREAT != 0, let shared = SharedDirectory(containing: path) else {
            return try SystemCall.run { Glibc.open(path, flags, mode) }
        }
        let fd = try SystemCall.run { Glibc.open(path, flags, shared.mode(asked: mode)) }
        adopt(fd, in: shared)
        return fd
    }

    /// close(2), never retried: Linux releases the descriptor even when close reports EINTR, and a
    /// second close could shut a descriptor another thread has just been given. Its failure (EIO:
    /// data the disk did not take, on a file systems that reports it at close) is thrown.
    package static func close(_ fd: Int32) throws(Descriptors.Errno) {
        if Glibc.close(fd) != 0 {
            let code = errno
            if code != EINTR { throw Descriptors.Errno(code) }
        }
    }

    /// close(2) of a descriptor that was only read, or whose writes were already synced: nothing
    /// is lost when it fails, so there is nothing to report.
    package static func closeAfterUse(_ fd: Int32) {
        // (EBADF would be a bug in the caller; EIO cannot concern data already synced or only read)
        _ = Glibc.close(fd)
    }

    /// dup(2): a second descriptor of the same open file, to be closed on its own.
    package static func duplicate(_ fd: Int32) throws(Descriptors.Errno) -> Int32 {
        try SystemCall.run { dup(fd) }
    }

    /// pipe2(2), both ends close-on-exec from the start (no child started meanwhile by another
    /// thread inherits them): (read end, write end).
    package static func pipe() throws(Descriptors.Errno) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try SystemCall.run { cprocess_pipe_cloexec(&fds) }
        return (fds[0], fds[1])
    }

    /// read(2) into `buffer`: the bytes read, 0 at the end.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Descriptors.Errno) -> Int {
        try SystemCall.run { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// pread(2) into `buffer` at `offset`: the bytes read, 0 at the end.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Descriptors.Errno) -> Int {
        try SystemCall.run { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// One read(2) of up to `count` bytes: what it read (none at the end).
    package static func read(_ fd: Int32, count: Int) throws(Descriptors.Errno) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        let got = try read(fd, into: buffer)
        return [UInt8](buffer[0..<got])
    }

    /// One pread(2) of up to `count` bytes at `offset`: what it read (fewer at the end, none past it).
    package static func read(_ fd: Int32, count: Int, at offset: Int64) throws(Descriptors.Errno) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        let got = try read(fd, into: buffer, at: offset)
        return [UInt8](buffer[0..<got])
    }

    /// write(2) of all of `bytes`, again after a short write.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Descriptors.Errno) {
        let failure = bytes.withUnsafeBytes { raw -> Descriptors.Errno? in
            do throws(Descriptors.Errno) { try writeAll(fd, raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// write(2) of all of `bytes`, again after a short write.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Descriptors.Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try SystemCall.run { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// pwrite(2) of all of `bytes` at `offset`, again after a short write.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64) throws(Descriptors.Errno) {
        let failure = bytes.withUnsafeBytes { raw -> Descriptors.Errno? in
            do throws(Descriptors.Errno) { try writeAll(fd, raw, at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// pwrite(2) of all of `bytes` at `offset`, again after a short write.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Descriptors.Errno) {
        var done = 0
        while done < bytes.count {
            done += try SystemCall.run { pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
        }
    }

    /// Reads `fd` to its end, at most `limit` bytes (EFBIG when there is more).
    package static func readAll(_ fd: Int32, limit: Int) throws(Descriptors.Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = try read(fd, into: chunk)
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { throw Descriptors.Errno(EFBIG) }
        }
    }

    /// Copies everything from `source` to `destination` (files, pipes).
    package static func copyAll(from source: Int32, to destination: Int32) throws(Descriptors.Errno) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = try read(source, into: chunk)
            if n == 0 { return }
            try writeAll(destination, UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
    }

    /// fsync(2): the file's data and metadata (a directory's names) on the disk.
    package static func fsync(_ fd: Int32) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.fsync(fd) }
    }

    /// fdatasync(2): the file's data on the disk (and the size that reads it).
    package static func fdatasync(_ fd: Int32) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.fdatasync(fd) }
    }

    /// rename(2): `to` replaced atomically.
    package static func rename(_ from: String, to: String) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.rename(from, to) }
    }

    /// link(2): a second name, refused (EEXIST) when `to` exists.
    package static func link(_ from: String, to: String) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.link(from, to) }
    }

    /// symlink(2): `path` made a link to `target`.
    package static func symlink(_ target: String, at path: String) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.symlink(target, path) }
    }

    /// unlink(2).
    package static func unlink(_ path: String) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.unlink(path) }
    }

    /// mkdir(2) (in a directory shared with a service, the new one takes the directory's owner or
    /// group: `SharedDirectory`).
    package static func mkdir(_ path: String, mode: UInt32) throws(Descriptors.Errno) {
        guard let shared = SharedDirectory(containing: path) else {
            try SystemCall.run { Glibc.mkdir(path, mode) }
            return
        }
        try SystemCall.run { Glibc.mkdir(path, shared.mode(asked: mode)) }
        adopt(directory: path, in: shared)
    }

    /// rmdir(2) of an empty directory.
    package static func rmdir(_ path: String) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.rmdir(path) }
    }

    /// truncate(2) to `length` bytes.
    package static func truncate(_ path: String, to length: Int64) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.truncate(path, off_t(length)) }
    }

    /// access(2): throws why `path` cannot be used so (ENOENT, EACCES...).
    package static func access(_ path: String, _ mode: Int32) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.access(path, mode) }
    }

    /// Whether access(2) allows `mode` (F_OK: whether it exists): for the checks where any
    /// failure means no (a marker file, a program to run).
    package static func allows(_ path: String, _ mode: Int32) -> Bool {
        (try? access(path, mode)) != nil
    }

    /// stat(2) of `path` (a link followed).
    package static func status(of path: String) throws(Descriptors.Errno) -> FileStatus {
        var info = stat()
        try SystemCall.run { stat(path, &info) }
        return FileStatus(info)
    }

    /// fstat(2) of an open descriptor.
    package static func status(of fd: Int32) throws(Descriptors.Errno) -> FileStatus {
        var info = stat()
        try SystemCall.run { fstat(fd, &info) }
        return FileStatus(info)
    }

    /// chmod(2).
    package static func chmod(_ path: String, _ mode: UInt32) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.chmod(path, mode_t(mode)) }
    }

    /// chown(2) (the caller's euid 0, or its own file to one of its groups).
    package static func chown(_ path: String, owner: UInt32, group: UInt32) throws(Descriptors.Errno) {
        try SystemCall.run { Glibc.chown(path, uid_t(owner), gid_t(group)) }
    }

    /// flock(2); with LOCK_NB a lock held elsewhere is EWOULDBLOCK, without it the call waits.
    package static func lock(_ fd: Int32, _ operation: Int32) throws(Descriptors.Errno) {
        try SystemCall.run { flock(fd, operation) }
    }

    /// Free bytes for this user on the file system that holds `path` (statvfs(2)).
    package static func freeBytes(_ path: String) throws(Descriptors.Errno) -> Int64 {
        var info = statvfs()
        try SystemCall.run { statvfs(path, &info) }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The path a symbolic link holds (readlink(2)).
    package static func linkTarget(_ path: String) throws(Descriptors.Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try SystemCall.run { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension FileStatus {
    init(_ info: stat) {
        self.init(size: Int64(info.st_size), inode: UInt64(info.st_ino),
                  modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9,
                  isDirectory: info.st_mode & S_IFMT == S_IFDIR, permissions: UInt32(info.st_mode & 0o7777),
                  isCharacterDevice: info.st_mode & S_IFMT == S_IFCHR, group: UInt32(info.st_gid), owner: UInt32(info.st_uid))
    }
}
