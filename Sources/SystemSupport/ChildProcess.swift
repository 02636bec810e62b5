internal import CProcess
import Glibc

/// A program started with `posix_spawn` and waited for asleep in poll(2) on its process
/// descriptor (pidfd): its end wakes the waiter at once, and a time limit costs no polling.
package struct ChildProcess: Sendable {
    package let pid: Int32
    private let descriptor: Int32

    /// How a child ended.
    package enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// It ran past the time limit and was killed (SIGKILL).
        case timedOut
    }

    /// Starts `path` with `arguments` (its argv[1...]) and this process's environment; the errno
    /// of `posix_spawn` on failure.
    package static func spawn(_ path: String, _ arguments: [String], output: Int32? = nil, errors: Int32? = nil) -> Result<ChildProcess, Descriptors.Errno> {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Default signal handling and none blocked: the kiosk ignores SIGTERM and SIGINT (its
        // service lifecycle watches them itself), and a child would inherit that: `kill` could not
        // stop a hook, nor its own Ctrl-C a script.
        var attributes = posix_spawnattr_t()
        let initialised = posix_spawnattr_init(&attributes)
        guard initialised == 0 else { return .failure(Descriptors.Errno(initialised)) }
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        for code in [posix_spawnattr_setsigdefault(&attributes, &all), posix_spawnattr_setsigmask(&attributes, &none),
                     posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))] where code != 0 {
            return .failure(Descriptors.Errno(code))
        }
        // `output`: the child's standard output (the write end of a pipe the caller reads).
        var actions = posix_spawn_file_actions_t()
        let prepared = posix_spawn_file_actions_init(&actions)
        guard prepared == 0 else { return .failure(Descriptors.Errno(prepared)) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            let code = posix_spawn_file_actions_adddup2(&actions, output, 1)
            guard code == 0 else { return .failure(Descriptors.Errno(code)) }
        }
        // `errors`: the child's standard error.
        if let errors {
            let code = posix_spawn_file_actions_adddup2(&actions, errors, 2)
            guard code == 0 else { return .failure(Descriptors.Errno(code)) }
        }
        let status = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
        guard status == 0 else { return .failure(Descriptors.Errno(status)) }
        // (nothing reaps it but `wait`, so the pid cannot be reused before this)
        return .success(ChildProcess(pid: pid, descriptor: cprocess_pidfd_open(pid)))
    }

    /// Waits for the child to end, at most `timeout` seconds (then it is killed and reaped), on
    /// the calling thread, and reaps it.
    package func wait(timeout: Double) -> Ending {
        // (a process descriptor, only polled)
        defer { if descriptor >= 0 { Posix.closeAfterUse(descriptor) } }
        let deadline = ContinuousClock.now + .microseconds(Int64(timeout * 1_000_000))
        var status: Int32 = 0
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return killed() }
            if descriptor >= 0 {
                // Asleep until it ends or the time is up.
                let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Int32(min(milliseconds, Int64(Int32.max))))
                if ready > 0 || (ready < 0 && errno != EINTR) { break }
            } else {
                // No pidfd (a kernel before 5.3, or no descriptor left): look every 20 ms, so the
                // time limit still holds.
                let done = waitpid(pid, &status, WNOHANG)
                if done == pid { return Self.ending(status) }
                if done < 0 && errno != EINTR { return .exited(-1) }
                usleep(20_000)
            }
        }
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(-1) }
        }
        return Self.ending(status)
    }

    /// Runs `path` with `arguments` to its end (at most `timeout` seconds, then it is killed) on
    /// the calling thread, and returns how it ended and what it wrote to its standard output (at
    /// most `limit` bytes are kept); nil when it could not be started. What it writes to its
    /// standard error goes nowhere: a program asked a question (systemctl, timedatectl) says why it
    /// cannot answer in words that are not ours to print (`recorder doctor`'s table is the answer).
    package static func output(_ path: String, _ arguments: [String], timeout: Double, limit: Int = 64 * 1024) -> (Ending, [UInt8])? {
        var ends: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&ends) == 0 else { return nil }
        let null = try? Posix.open("/dev/null", O_WRONLY | O_CLOEXEC)
        let spawned = spawn(path, arguments, output: ends[1], errors: null)
        Posix.closeAfterUse(ends[1])
        if let null { Posix.closeAfterUse(null) }
        guard case .success(let child) = spawned else {
            Posix.closeAfterUse(ends[0])
            return nil
        }
        let deadline = ContinuousClock.now + .microseconds(Int64(timeout * 1_000_000))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        // Read until the child closes its end (it ends) or the time is up; the wait kills it then.
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var entry = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(left.components.seconds * 1000 + 1, Int64(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            // (EINTR is retried inside; another failure ends the reading as the end of the output would)
            guard let count = try? chunk.withUnsafeMutableBytes({ buffer throws(Descriptors.Errno) in try Posix.read(ends[0], into: buffer) }),
                  count > 0 else { break }
            if bytes.count < limit { bytes += chunk.prefix(min(count, limit - bytes.count)) }
        }
        Posix.closeAfterUse(ends[0])
        let left = ContinuousClock.now.duration(to: deadline)
        return (child.wait(timeout: max(0.001, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)), bytes)
    }

    private func killed() -> Ending {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .timedOut
    }

    private static func ending(_ status: Int32) -> Ending {
        // (WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros)
        status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }
}
