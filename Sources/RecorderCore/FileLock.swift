import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive flock(2) on a file (the shot workspace, the outbox, posting), released when the
/// owner goes away or the process dies; a second taker gets `busy` as a clear error at once.
public struct FileLock: ~Copyable {
    private let fd: Int32

    init(path: String, busy: String) throws(RecorderError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DurableFile.ioError("open", path) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw RecorderError(busy, exitStatus: .tempFail)
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
