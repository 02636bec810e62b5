#if canImport(Glibc)
package import Glibc
#endif
package import SystemSupport
package import StoreValues

/// The stores', the part journal's and the outbox's file operations: `FileSystem`'s (SystemSupport,
/// the one home of a durable write), with a failure told as the `StorageError` that says what to
/// do (`error`), the words the local store, the cache and the commands share.
package enum LocalFiles {
    /// Replaces `path` with `bytes` atomically and durably.
    package static func writeDurably(_ bytes: [UInt8], to path: String) throws(StorageError) {
        try told { () throws(FileSystem.Failure) in try FileSystem.writeDurably(bytes, to: path) }
    }

    /// Copies `source` to a new file `destination` (which must not exist) and fsyncs it. On failure
    /// the partial copy is removed.
    package static func copySynced(from source: String, to destination: String) throws(StorageError) {
        let out = try run("create", destination) { () throws(Descriptors.Errno) in
            try Posix.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
        }
        do throws(StorageError) {
            try FileChunks.forEach(path: source, offset: 0, length: nil) { chunk throws(StorageError) in
                try run("write", destination) { () throws(Descriptors.Errno) in try Posix.writeAll(out, chunk) }
                UploadMeter.add(chunk.count)
            }
            try run("fsync", destination) { () throws(Descriptors.Errno) in try Posix.fsync(out) }
        } catch {
            Posix.closeAfterUse(out)
            // The copy's failure is the one to report; a partial copy must not stay behind.
            try? Posix.unlink(destination)
            throw error
        }
        // (fsync succeeded: nothing close could report concerns the copy)
        Posix.closeAfterUse(out)
    }

    /// Where this process writes `path` before it is renamed or linked into place (`FileSystem.temporaryPath`).
    package static func temporaryPath(for path: String, kind: String) -> String {
        FileSystem.temporaryPath(for: path, kind: kind)
    }

    /// Removes the temporaries a writer that is gone left behind (`FileSystem.removeAbandonedTemporaries`).
    package static func removeAbandonedTemporaries(in directory: String, kind: String, name: String? = nil) {
        FileSystem.removeAbandonedTemporaries(in: directory, kind: kind, name: name)
    }

    /// mkdir(2) of one directory; one that exists already is fine.
    package static func makeDirectory(_ path: String, mode: mode_t, operation: String = "create",
                                      elsewhere: StorageError.Elsewhere = .configuration) throws(StorageError) {
        try told(elsewhere: elsewhere) { () throws(FileSystem.Failure) in try FileSystem.makeDirectory(path, mode: mode, operation: operation) }
    }

    /// Runs `body` (a `Posix` call on `path`); a failure becomes the StorageError its errno,
    /// captured at the call, describes.
    @discardableResult
    package static func run<T>(_ operation: String, _ path: String,
                               elsewhere: StorageError.Elsewhere = .configuration,
                               _ body: Posix.Call<T>) throws(StorageError) -> T {
        do throws(Descriptors.Errno) { return try body() } catch {
            throw self.error(operation, path, code: error.code, elsewhere: elsewhere)
        }
    }

    /// Runs a `FileSystem` operation; its failure becomes the StorageError that says what to do.
    @discardableResult
    package static func told<T>(elsewhere: StorageError.Elsewhere = .configuration,
                                _ body: () throws(FileSystem.Failure) -> T) throws(StorageError) -> T {
        do throws(FileSystem.Failure) { return try body() } catch {
            throw self.error(error.operation, error.path, code: error.errno.code, elsewhere: elsewhere)
        }
    }

    /// Whether `path` exists: false when it (or a directory above it) does not; any other failure
    /// to look (no permission, an I/O error) is thrown, not taken for absence.
    package static func exists(_ path: String, operation: String = "stat") throws(StorageError) -> Bool {
        try told { () throws(FileSystem.Failure) in try FileSystem.exists(path, operation: operation) }
    }

    /// mkdir -p with the real reason on failure (a full disk says so, not "permission denied").
    package static func createDirectories(_ path: String, mode: mode_t = 0o755,
                                         elsewhere: StorageError.Elsewhere = .configuration) throws(StorageError) {
        try told(elsewhere: elsewhere) { () throws(FileSystem.Failure) in try FileSystem.createDirectories(path, mode: mode) }
    }

    /// fsync(2) of the directory that holds `path`, so a name just made or changed survives a power cut.
    package static func syncDirectory(of path: String) throws(StorageError) {
        try told { () throws(FileSystem.Failure) in try FileSystem.syncDirectory(of: path) }
    }

    /// fsync(2) of a file or directory: its data (and, for a directory, its names) on the disk, or
    /// the reason it is not.
    package static func syncFile(_ path: String) throws(StorageError) {
        try told { () throws(FileSystem.Failure) in try FileSystem.syncFile(path) }
    }

    /// The failure errno `code` (captured at the call that failed) describes (`StorageError.local`).
    package static func error(_ operation: String, _ path: String, code: Int32,
                             elsewhere: StorageError.Elsewhere = .configuration) -> StorageError {
        StorageError.local(operation, path, code: code, elsewhere: elsewhere)
    }
}
