import Glibc
import Synchronization

/// This process's own program, started again in place.
package enum ProcessImage {
    /// Where the kernel keeps this process's program: its binary even when the path it was started
    /// by has changed since.
    static let ownProgram = "/proc/self/exe"

    /// The descriptors this process was started with (`noteInheritedDescriptors`): a restart hands
    /// them on as they came (a supervisor may watch one), every other one is closed.
    private static let inherited = Mutex<Set<Int32>?>(nil)

    /// Notes the descriptors open now, as the first thing the program does: those its parent gave.
    package static func noteInheritedDescriptors() {
        let open = Set(DirectoryListing.namesIfReadable("/proc/self/fd").compactMap { Int32($0) })
        inherited.withLock { $0 = open }
    }

    /// Replaces this process with a fresh run of its own program, with `arguments` (the first is
    /// its name) and the same environment: the pid stays, so a service manager (systemd's
    /// Type=notify, NotifyAccess=main) sees the same process start again. Every descriptor it
    /// opened is closed on the way (close-on-exec), so the new run binds its ports and opens its
    /// devices afresh; those it was started with are handed on. Returns only when the exec failed,
    /// with its errno.
    package static func restart(arguments: [String]) -> Descriptors.Errno {
        closeOwnDescriptors()
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // By its own path, so the process keeps its name ("recorder", not "exe"); through the
        // kernel's link when that path is gone (replaced by an upgrade: the running binary).
        let path = (try? Posix.linkTarget(ownProgram)).flatMap { $0.hasSuffix(" (deleted)") ? nil : $0 } ?? ownProgram
        // (execv returns only on failure)
        _ = execv(path, argv)
        return Descriptors.Errno(errno)
    }

    /// Marks close-on-exec every open descriptor but standard input, output and error and those
    /// the process was started with.
    static func closeOwnDescriptors() {
        let kept = inherited.withLock { $0 } ?? [0, 1, 2]
        for name in DirectoryListing.namesIfReadable("/proc/self/fd") {
            guard let fd = Int32(name), fd > 2, !kept.contains(fd) else { continue }
            // (a descriptor closed since the listing, such as the listing's own: nothing to mark)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }
}
