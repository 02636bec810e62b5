import FoundationEssentials
import StorageUpload
#if canImport(Glibc)
import Glibc
#endif

/// Crash-safe file operations: write to a temp name, fsync, rename, fsync the directory.
enum DurableFile {
    static func write(_ data: Data, to path: String) throws(RecorderError) {
        do throws(StorageError) { try LocalFiles.writeDurably(Array(data), to: path) } catch {
            throw RecorderError(error)
        }
    }

    /// rename(2) then fsync of the destination's directory, so the new name survives a power cut.
    static func rename(_ from: String, to: String) throws(RecorderError) {
        guard Glibc.rename(from, to) == 0 else { throw ioError("rename", from) }
        syncDirectory(of: to)
    }

    static func syncDirectory(of path: String) {
        LocalFiles.syncDirectory(of: path)
    }

    static func fsyncFile(_ path: String) {
        LocalFiles.syncFile(path)
    }

    /// The errno-described failure of a workspace or outbox operation, with its fix and exit status
    /// (the mapping StorageUpload's local store uses, so both say the same thing).
    static func ioError(_ operation: String, _ path: String) -> RecorderError {
        RecorderError(LocalFiles.error(operation, path, elsewhere: "another location (--workspace for shots, `outbox` in the configuration for posts)"))
    }
}
