import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
internal import SystemSupport

/// An exclusive flock(2) on a file (the shot workspace, the outbox, posting, a cached video),
/// released when the owner goes away or the process dies. With `busy`, a second taker gets it as a
/// clear error at once; without, it waits its turn.
package struct FileLock: ~Copyable {
    private let fd: Int32

    package init(path: String, busy: RecorderError?) throws(RecorderError) {
        let fd = try DurableFile.run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600) }
        do throws(Descriptors.Errno) {
            // EINTR is retried; a waiting lock (busy == nil) sleeps in the kernel until it is free.
            try Posix.lock(fd, busy == nil ? LOCK_EX : LOCK_EX | LOCK_NB)
        } catch {
            Posix.closeAfterUse(fd)
            if let busy, error.code == EWOULDBLOCK { throw busy }
            throw DurableFile.ioError("lock", path, code: error.code)
        }
        self.fd = fd
    }

    // Closing releases the lock; nothing was written through this descriptor.
    deinit { Posix.closeAfterUse(fd) }
}
