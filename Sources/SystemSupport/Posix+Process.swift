import Glibc

/// The process's and the time's system calls, beside the file system's in `Posix`: the same funnel
/// (errno captured, EINTR retried, a typed error), so no module calls them raw (`CodeRulesTests`).
extension Posix {
    /// This process's id (getpid(2)): in a temporary name, to tell a live writer from a crashed one.
    package static var processID: Int32 { getpid() }

    /// The effective user id (geteuid(2)): 0 when the process may give a file to another owner.
    package static var effectiveUserID: UInt32 { geteuid() }

    /// The real user id (getuid(2)): whose places a command uses.
    package static var userID: UInt32 { getuid() }

    /// The home directory the user database gives the real user (getpwuid(3)), if any.
    package static var userHome: String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// Whether process `pid` exists (kill(2) with no signal): EPERM is a process of another user.
    package static func processExists(_ pid: Int32) -> Bool {
        if kill(pid, 0) == 0 { return true }
        return errno != ESRCH
    }

    /// The wall clock (CLOCK_REALTIME) as seconds and nanoseconds since 1970: for a name that
    /// sorts by time. What is measured or waited for takes a `RecorderClock`.
    package static func wallClock() -> (seconds: Int, nanoseconds: Int) {
        var ts = timespec()
        // (CLOCK_REALTIME cannot fail: its id is valid and the pointer ours)
        _ = clock_gettime(CLOCK_REALTIME, &ts)
        return (ts.tv_sec, ts.tv_nsec)
    }

    /// When this boot began, in seconds since 1970 (the wall clock less CLOCK_BOOTTIME).
    package static func bootTime() -> Int {
        var now = timespec(), sinceBoot = timespec()
        // (neither clock can fail: their ids are valid and the pointers ours)
        _ = clock_gettime(CLOCK_REALTIME, &now)
        _ = clock_gettime(CLOCK_BOOTTIME, &sinceBoot)
        return now.tv_sec - sinceBoot.tv_sec
    }

    /// A short pause of a thread of its own between two looks at a device (usleep(3)): never more
    /// than `maximumPause`, so a loop that looks at its stop flag between pauses stops promptly.
    /// A wait for anything longer waits on a signal with a deadline (`ClockWait`, `WakePipe`).
    package static func pause(microseconds: Int) {
        _ = usleep(UInt32(min(max(microseconds, 0), maximumPause)))  // (EINTR only ends the pause early)
    }

    /// The longest `pause`: 50 ms.
    package static let maximumPause = 50_000

    /// realpath(3): `path` with every link and `..` resolved.
    package static func realPath(_ path: String) throws(Descriptors.Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw Descriptors.Errno(errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// utimes(2) with no times: the file's access and modification times set to now.
    package static func touch(_ path: String) throws(Descriptors.Errno) {
        try SystemCall.run { utimes(path, nil) }
    }

    /// mkstemps(3): a new file `directory`/`prefix`XXXXXX`suffix`, opened for reading and writing
    /// (mode 0600): its descriptor and its path.
    package static func makeTemporaryFile(in directory: String, prefix: String, suffix: String) throws(Descriptors.Errno) -> (fd: Int32, path: String) {
        var template = Array("\(directory)/\(prefix)XXXXXX\(suffix)".utf8CString)
        let fd = try SystemCall.run { template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) } }
        return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// Whether `fd` is a terminal (isatty(3)): a person watching, not a pipe or a file.
    package static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The value of the environment variable `name` (getenv(3)), nil when unset.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// What the process does on `signal` (signal(2)): ignore it (SIGINT, SIGTERM while a handler
    /// of its own takes them), or the default again.
    package static func setSignal(_ signal: Int32, ignored: Bool) {
        // (signal(2) fails only for an invalid signal number or SIGKILL/SIGSTOP: the callers' are neither)
        _ = Glibc.signal(signal, ignored ? SIG_IGN : SIG_DFL)
    }
}
