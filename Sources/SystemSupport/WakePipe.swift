import Glibc

/// A pipe a thread sleeps on (in poll(2), or `waitForWake`) and another wakes with a byte: how a
/// device's or a hook's thread is told to look again or to stop, without polling. Closed when
/// the owner goes away.
package final class WakePipe: Sendable {
    /// The end to wait on: readable once `wake` has been called.
    package let readEnd: Int32
    private let writeEnd: Int32

    /// nil when the process is out of file descriptors (a pipe cannot fail otherwise).
    package init?() {
        // (not inherited by a child: a hook, a program the kiosk runs)
        guard let ends = try? Posix.pipe() else { return nil }
        (readEnd, writeEnd) = ends
    }

    /// Wakes the waiter (again, if it was already woken: each wake is at least one wake-up).
    package func wake() {
        // A pipe too full to take the byte already holds wake-ups the waiter has not read.
        try? Posix.writeAll(writeEnd, [1])
    }

    /// Sleeps until `wake` (true), or until the pipe fails (false: the waiter should give up).
    package func waitForWake() -> Bool {
        guard let bytes = try? Posix.read(readEnd, count: 64) else { return false }
        return !bytes.isEmpty
    }

    // Nothing written to a pipe is lost by its close: there is nothing to report.
    deinit {
        Posix.closeAfterUse(readEnd)
        Posix.closeAfterUse(writeEnd)
    }
}
