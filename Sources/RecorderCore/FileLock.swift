import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive flock(2) on a file (the shot workspace, the outbox, posting, a cached video),
/// released when the owner goes away or the process dies. With `busy`, a second taker gets it as a
/// clear error at once; without, it waits its turn.
public struct FileLock: ~Copyable {
    private let fd: Int32

    init(path: String, busy: String?) throws(RecorderError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DurableFile.ioError("open", path) }
        while flock(fd, busy == nil ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR && busy == nil { continue }
            let lockError = errno
            close(fd)
            if let busy, lockError == EWOULDBLOCK { throw RecorderError(busy, exitStatus: .tempFail) }
            errno = lockError
            throw DurableFile.ioError("lock", path)
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
