import Glibc

/// The names in a directory, read with opendir/readdir and errno captured where either fails.
package enum DirectoryListing {
    /// Every name in `path` but `.` and `..`, in the order the file system gives them; throws the
    /// errno of opendir (ENOENT, EACCES, ENOTDIR) or of readdir (EIO on a failing disk).
    package static func names(in path: String) throws(Descriptors.Errno) -> [String] {
        guard let directory = opendir(path) else { throw Descriptors.Errno(errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            // readdir returns NULL both at the end and on failure; only errno tells them apart.
            errno = 0
            guard let entry = readdir(directory) else {
                let code = errno
                if code != 0 { throw Descriptors.Errno(code) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// The names in a directory that may well be missing or unreadable (/dev/v4l/by-id, /dev/snd,
    /// /proc/PID/fd): empty then, as for an empty one.
    package static func namesIfReadable(_ path: String) -> [String] {
        (try? names(in: path)) ?? []
    }
}
