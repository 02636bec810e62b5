package import FoundationEssentials
import StorageUpload
package import SystemSupport
#if canImport(Glibc)
import Glibc
#endif
import StoreValues

/// The workspace's and the outbox's crash-safe file operations: `FileSystem`'s (SystemSupport, the
/// one home of a durable write: temporary name, fsync, rename, fsync of the directory), with a
/// failure told as the RecorderError that names the fix, in the words the local store uses
/// (`LocalFiles.error`), so both say the same thing.
package enum DurableFile {
    /// Where another location is chosen, for the fix in a workspace or outbox error.
    package static let elsewhere = "another location (the workspace setting for shots, the outbox setting for posts)"

    package static func write(_ data: Data, to path: String) throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.writeDurably(Array(data), to: path) } catch {
            throw RecorderError(error)
        }
    }

    /// rename(2) then fsync of the destination's directory, so the new name survives a power cut.
    package static func rename(_ from: String, to: String) throws(RecorderError) {
        try run("rename", from) { () throws(Descriptors.Errno) in try Posix.rename(from, to: to) }
        try syncDirectory(of: to)
    }

    package static func syncDirectory(of path: String) throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.syncDirectory(of: path) } catch { throw RecorderError(error) }
    }

    package static func fsyncFile(_ path: String) throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.syncFile(path) } catch { throw RecorderError(error) }
    }

    /// Runs a `Posix` call on a workspace or outbox path; a failure (errno captured at the call)
    /// becomes the error with its fix and kind (the mapping StorageUpload's local store uses, so
    /// both say the same thing).
    @discardableResult
    package static func run<T>(_ operation: String, _ path: String, _ body: Posix.Call<T>) throws(RecorderError) -> T {
        do throws(StorageError) { return try LocalFiles.run(operation, path, elsewhere: elsewhere, body) } catch {
            throw RecorderError(error)
        }
    }

    /// mkdir(2) of a workspace or outbox directory; one that exists already is fine.
    package static func makeDirectory(_ path: String, operation: String = "create") throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.makeDirectory(path, mode: 0o700, operation: operation, elsewhere: elsewhere) } catch {
            throw RecorderError(error)
        }
    }

    /// The failure errno `code` describes, for a call that cannot go through `run`.
    package static func ioError(_ operation: String, _ path: String, code: Int32) -> RecorderError {
        RecorderError(LocalFiles.error(operation, path, code: code, elsewhere: elsewhere))
    }
}
