import Glibc

/// Starts blocking work (ioctl, poll, curl, encoding) on a thread of its own, off Swift's
/// cooperative pool. A POSIX thread rather than Foundation's `Thread`, so the binary needs only
/// FoundationEssentials.
package enum WorkerThread {
    /// Runs `body` on a new detached thread. `stackSize` in bytes; 0 keeps the system's default.
    /// A thread that cannot be created (the process is out of threads or memory) is fatal: every
    /// caller depends on the work running, and there is no slower path to fall back to.
    package static func start(name: String? = nil, stackSize: Int = 0, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(body, name: name)).toOpaque()
        let status = createDetachedThread(stackSize: stackSize, context: context)
        if status != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            fatalError("cannot start a thread: \(String(cString: strerror(status)))")
        }
    }

    private static func createDetachedThread(stackSize: Int, context: UnsafeMutableRawPointer) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if stackSize > 0 { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, workerThreadEntry, context)
        pthread_attr_destroy(&attributes)
        return status
    }
}

/// What one thread runs, handed over through pthread_create's context pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    let name: String?
    init(_ run: @escaping @Sendable () -> Void, name: String?) {
        self.run = run
        self.name = name
    }

    /// Names the calling thread for ps, top and gdb (the kernel keeps 15 bytes). Glibc's
    /// `pthread_setname_np` is not visible to Swift without _GNU_SOURCE; the kernel's file is.
    func nameThisThread() {
        guard let name else { return }
        // A name is only for people looking at the process: a kernel without the file, or one that
        // refuses the name, leaves the thread unnamed and nothing else changes.
        guard let fd = try? Posix.open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC) else { return }
        try? Posix.writeAll(fd, Array(name.utf8.prefix(15)))
        Posix.closeAfterUse(fd)
    }
}

private func workerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
    body.nameThisThread()
    body.run()
    return nil
}
