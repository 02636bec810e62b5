import Glibc
internal import CProcess

/// This process's own program, started again in place.
package enum ProcessImage {
    /// Where the kernel keeps this process's program: its binary even when the path it was started
    /// by has changed since.
    static let ownProgram = "/proc/self/exe"

    /// Replaces this process with a fresh run of its own program, with `arguments` (the first is
    /// its name) and the same environment: the pid stays, so a service manager (systemd's
    /// Type=notify, NotifyAccess=main) sees the same process start again. Every descriptor but
    /// standard input, output and error is closed on the way (close-on-exec), so the new run binds
    /// its ports and opens its devices afresh. Returns only when the exec failed, with its errno.
    package static func restart(arguments: [String]) -> Descriptors.Errno {
        closeOnExec(from: 3)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // (execv returns only on failure)
        _ = execv(ownProgram, argv)
        return Descriptors.Errno(errno)
    }

    /// Marks every descriptor from `first` up close-on-exec: close_range(2) at once, else (a kernel
    /// before 5.11) each open one in /proc/self/fd.
    static func closeOnExec(from first: Int32) {
        if cprocess_cloexec_from(UInt32(first)) == 0 { return }
        for name in DirectoryListing.namesIfReadable("/proc/self/fd") {
            guard let fd = Int32(name), fd >= first else { continue }
            // (a descriptor closed since the listing: nothing to mark)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }
}
