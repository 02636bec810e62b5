#if canImport(Glibc)
import Glibc
#endif

extension StorageError {
    /// The failure errno `code` (captured at the call that failed) describes, with the fix:
    /// `elsewhere` says where another location is chosen.
    package static func local(_ operation: String, _ path: String, code: Int32,
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
