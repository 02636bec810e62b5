import Foundation
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
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    static func ioError(_ operation: String, _ path: String) -> RecorderError {
        let code = errno
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return RecorderError("the disk is full (\(operation) \(path): \(reason)). Free some space and try again; nothing was lost.", exitStatus: .ioError)
        case ENOENT, ENOTDIR:
            return RecorderError("cannot \(operation) \(path): \(reason). Create its parent directory or choose another location (--workspace).", exitStatus: .cantCreate)
        case EACCES, EPERM, EROFS:
            return RecorderError("cannot \(operation) \(path): \(reason). Make the directory writable for this user or choose another one in the configuration.", exitStatus: .cantCreate)
        default:
            return RecorderError("cannot \(operation) \(path): \(reason).", exitStatus: .ioError)
        }
    }
}
