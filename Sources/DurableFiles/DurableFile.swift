package import FoundationEssentials
package import Failures
package import StoreValues
package import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// The workspace's and the outbox's crash-safe file operations: `FileSystem`'s (SystemSupport, the
/// one home of a durable write: temporary name, fsync, rename, fsync of the directory), with a
/// failure told as the RecorderError that names the fix, in the words the local store uses
/// (`StorageError.local`), so both say the same thing.
package enum DurableFile {
    /// Where another location is chosen, for the fix in a workspace or outbox error.
    package static let elsewhere = StorageError.Elsewhere.workspaceOrOutbox

    package static func write(_ data: Data, to path: String) throws(RecorderError) {
        try told { () throws(FileSystem.Failure) in try FileSystem.writeDurably(Array(data), to: path) }
    }

    /// rename(2) then fsync of the destination's directory, so the new name survives a power cut.
    package static func rename(_ from: String, to: String) throws(RecorderError) {
        try run("rename", from) { () throws(Descriptors.Errno) in try Posix.rename(from, to: to) }
        try syncDirectory(of: to)
    }

    package static func syncDirectory(of path: String) throws(RecorderError) {
        try told { () throws(FileSystem.Failure) in try FileSystem.syncDirectory(of: path) }
    }

    package static func fsyncFile(_ path: String) throws(RecorderError) {
        try told { () throws(FileSystem.Failure) in try FileSystem.syncFile(path) }
    }

    /// Runs a `Posix` call on a workspace or outbox path; a failure (errno captured at the call)
    /// becomes the error with its fix and kind (the mapping the local store uses, so both say
    /// the same thing).
    @discardableResult
    package static func run<T>(_ operation: String, _ path: String, _ body: Posix.Call<T>) throws(RecorderError) -> T {
        do throws(Descriptors.Errno) { return try body() } catch { throw ioError(operation, path, code: error.code) }
    }

    /// mkdir(2) of a workspace or outbox directory; one that exists already is fine.
    package static func makeDirectory(_ path: String, operation: String = "create") throws(RecorderError) {
        try told(elsewhere: elsewhere) { () throws(FileSystem.Failure) in try FileSystem.makeDirectory(path, mode: 0o700, operation: operation) }
    }

    /// The failure errno `code` describes, for a call that cannot go through `run`.
    package static func ioError(_ operation: String, _ path: String, code: Int32) -> RecorderError {
        RecorderError(StorageError.local(operation, path, code: code, elsewhere: elsewhere))
    }

    /// Runs a `FileSystem` operation; its failure becomes the error that says what to do.
    @discardableResult
    static func told<T>(elsewhere: StorageError.Elsewhere = .configuration,
                        _ body: () throws(FileSystem.Failure) -> T) throws(RecorderError) -> T {
        do throws(FileSystem.Failure) { return try body() } catch {
            throw RecorderError(StorageError.local(error.operation, error.path, code: error.errno.code, elsewhere: elsewhere))
        }
    }
}
