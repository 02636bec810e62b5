package import FoundationEssentials
import StorageUpload
internal import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Crash-safe file operations: write to a temp name, fsync, rename, fsync the directory. Every
/// fsync is checked: a write the disk did not take is a failure, not a file that may vanish later.
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
        try call("rename", from) { Glibc.rename(from, to) }
        try syncDirectory(of: to)
    }

    package static func syncDirectory(of path: String) throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.syncDirectory(of: path) } catch { throw RecorderError(error) }
    }

    package static func fsyncFile(_ path: String) throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.syncFile(path) } catch { throw RecorderError(error) }
    }

    /// Runs a system call on a workspace or outbox path; a failure (errno captured at the call)
    /// becomes the error with its fix and kind (the mapping StorageUpload's local store
    /// uses, so both say the same thing).
    @discardableResult
    package static func call<T: FixedWidthInteger>(_ operation: String, _ path: String, _ body: () -> T) throws(RecorderError) -> T {
        do throws(StorageError) { return try LocalFiles.call(operation, path, elsewhere: elsewhere, body) } catch {
            throw RecorderError(error)
        }
    }

    /// mkdir(2) of a workspace or outbox directory; one that exists already is fine.
    package static func makeDirectory(_ path: String, operation: String = "create") throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.makeDirectory(path, mode: 0o700, operation: operation, elsewhere: elsewhere) } catch {
            throw RecorderError(error)
        }
    }

    /// The failure errno `code` describes, for a call that cannot go through `call`.
    package static func ioError(_ operation: String, _ path: String, code: Int32) -> RecorderError {
        RecorderError(LocalFiles.error(operation, path, code: code, elsewhere: elsewhere))
    }
}
