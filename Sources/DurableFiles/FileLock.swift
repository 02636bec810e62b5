import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport
package import Failures

/// An exclusive flock(2) on a file (the shot workspace, the outbox, posting, a cached video),
/// released when the owner goes away or the process dies. With `busy`, a second taker gets it as a
/// clear error (after `patienceSeconds` by `clock` of trying again, at once by default); without,
/// it waits its turn. The patient tries wait on a `ClockWait`, not in a sleep: a cancelled task
/// gives up at its next look (`busy`), and a `TestClock` moves the patience along.
package struct FileLock: ~Copyable {
    private let fd: Int32

    /// How long between two tries of a busy lock.
    static let retry: Duration = .milliseconds(20)

    package init(path: String, busy: RecorderError?, patienceSeconds: Double = 0, clock: any RecorderClock = .system) throws(RecorderError) {
        let fd = try DurableFile.run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600) }
        let giveUp = clock.now + .milliseconds(Int64(patienceSeconds * 1000))
        var wait: ClockWait?
        while true {
            do throws(Descriptors.Errno) {
                // EINTR is retried; a waiting lock (busy == nil) sleeps in the kernel until it is free.
                try Posix.lock(fd, busy == nil ? LOCK_EX : LOCK_EX | LOCK_NB)
                break
            } catch {
                // (a lock held a moment longer than its holder: a child forked while the holder
                // had it open keeps the open file, and its lock, until its exec closes it)
                if busy != nil, error.code == EWOULDBLOCK, clock.now < giveUp, !Task.isCancelled {
                    let waiting = wait ?? ClockWait(clock: clock)
                    wait = waiting
                    waiting.wait(until: min(clock.now + Self.retry, giveUp)) { Task.isCancelled }
                    continue
                }
                Posix.closeAfterUse(fd)
                if let busy, error.code == EWOULDBLOCK { throw busy }
                throw DurableFile.ioError("lock", path, code: error.code)
            }
        }
        self.fd = fd
    }

    // Closing releases the lock; nothing was written through this descriptor.
    deinit { Posix.closeAfterUse(fd) }
}
