import Glibc
import SystemSupport
import Testing

/// `ChildProcess`: real programs (sh, sleep) started, waited for on their process descriptor, and
/// told apart by how they ended.
@Suite struct ChildProcessTests {
    private func started(_ path: String, _ arguments: [String]) throws -> ChildProcess {
        switch ChildProcess.spawn(path, arguments) {
        case .success(let child): return child
        case .failure(let error): throw error
        }
    }

    @Test func anExitStatusAndASignalAreToldApart() throws {
        #expect(try started("/bin/sh", ["-c", "exit 3"]).wait(timeout: 60) == .exited(3))
        #expect(try started("/bin/sh", ["-c", "exit 0"]).wait(timeout: 60) == .exited(0))
        #expect(try started("/bin/sh", ["-c", "kill -TERM $$"]).wait(timeout: 60) == .signalled(SIGTERM))
        // Its arguments arrive as given, one each, spaces and all.
        #expect(try started("/bin/sh", ["-c", "[ \"$1\" = 'two words' ] && exit 7", "sh", "two words"]).wait(timeout: 60) == .exited(7))
    }

    @Test func aChildPastItsTimeIsKilledAndReaped() throws {
        let child = try started("/bin/sleep", ["60"])
        #expect(child.wait(timeout: 0.3) == .timedOut)
        // Reaped: no such process any more (not even a zombie to signal).
        #expect(kill(child.pid, 0) == -1 && errno == ESRCH)
    }

    @Test func aProgramThatCannotStartIsItsErrno() {
        guard case .failure(let error) = ChildProcess.spawn("/nonexistent/hook", []) else {
            Issue.record("a missing program started")
            return
        }
        #expect(error.code == ENOENT)
    }
}
