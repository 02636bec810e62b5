import Glibc
package import FoundationEssentials

/// What `FileManager` did for the modules (a file's bytes, a folder removed with what it holds, a
/// name that exists), through `Posix`: a failure carries its errno, never only "could not".
extension FileSystem {
    /// The largest file `contents` reads by default: the metadata, states, receipts and settings
    /// it is for are a few KiB.
    package static let contentsLimit = 64 << 20

    /// The bytes of the file at `path` (EFBIG past `limit`).
    package static func contents(of path: String, limit: Int = contentsLimit) throws(Failure) -> [UInt8] {
        let fd = try run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDONLY | O_CLOEXEC) }
        // Only read: nothing close could report concerns the bytes.
        defer { Posix.closeAfterUse(fd) }
        return try run("read", path) { () throws(Descriptors.Errno) in try Posix.readAll(fd, limit: limit) }
    }

    /// The bytes of the file at `path`, or nil when there is none or it cannot be read: for the
    /// files whose absence and unreadability mean the same (a marker, a record read again later).
    package static func contentsIfReadable(_ path: String, limit: Int = contentsLimit) -> [UInt8]? {
        try? contents(of: path, limit: limit)
    }

    /// `contentsIfReadable` as `Data`, for a decoder (JSON) to read.
    package static func dataIfReadable(_ path: String, limit: Int = contentsLimit) -> Data? {
        contentsIfReadable(path, limit: limit).map { Data($0) }
    }

    /// Removes `path`: a file or a link (not what it points to), or a directory with everything
    /// in it (`rm -r`). The first failure is thrown (ENOENT when there is nothing at `path`).
    package static func removeTree(_ path: String) throws(Failure) {
        do throws(Descriptors.Errno) { try Posix.unlink(path) } catch {
            // (Linux's unlink of a directory is EISDIR: its contents go first, then the directory)
            guard error.code == EISDIR else { throw Failure("remove", path, error) }
            let names = try run("list", path) { () throws(Descriptors.Errno) in try DirectoryListing.names(in: path) }
            for name in names { try removeTree("\(path)/\(name)") }
            try run("remove", path) { () throws(Descriptors.Errno) in try Posix.rmdir(path) }
        }
    }

    /// Removes `path` as `removeTree` does, for what may well be gone already or is only tidied
    /// (a scratch folder, a half-made one): what stays is hidden, or tried again next time.
    package static func removeTreeIfThere(_ path: String) {
        // (best effort, as said above)
        try? removeTree(path)
    }

    /// The names in the directory `path`, or none when it is missing or unreadable.
    package static func names(in path: String) -> [String] {
        DirectoryListing.namesIfReadable(path)
    }

    /// Whether something is at `path` (a link followed): any failure to look is taken for no.
    package static func isThere(_ path: String) -> Bool {
        Posix.allows(path, F_OK)
    }
}
