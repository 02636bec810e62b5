#if canImport(Glibc)
import Glibc
#endif

extension StorageError {
    /// The failure errno `code` (captured at `operation` on `path`) describes: the disk full is
    /// an I/O failure, a permission or a missing directory a fix of the settings (`elsewhere`
    /// says where another location is chosen).
    package static func local(_ operation: String, _ path: String, code: Int32, elsewhere: Elsewhere = .configuration) -> StorageError {
        StorageError(.local(errno: code), .file(operation: operation, path: path, errno: code, elsewhere: elsewhere), retryable: false)
    }
}
