import Glibc
import Synchronization
internal import CProcess

/// The rest of an answer written to its connection's socket by one thread, where bytes that come
/// from another socket (a store's) pass in the kernel, never copied into the process: `splice(2)`
/// from that socket into a pipe of the sink's, then from the pipe into this one. For an answer
/// that passes on a gigabyte (a host's Download all), a proxy's two copies were half of
/// `recorder serve`'s CPU (perf: the kernel's copy to the process and back).
///
/// The socket is a duplicate (`dup`) of a server connection's, taken once the server has sent the
/// answer's head and before it writes anything else on the connection; it must carry the bytes as
/// they are (no TLS in the process). Releasing the sink closes the duplicate and the pipes; the
/// server's descriptor stays the server's. It shares the server's non-blocking mode: each wait is
/// a `poll` of at most a second. `cancel` (from any thread: the server closed the connection, or
/// stops) ends the transfer at the sink's next call or within a second of a wait.
///
/// `@unchecked Sendable`: one thread writes through it at a time; `cancel` is atomic.
package final class SocketSink: @unchecked Sendable {
    /// Why the connection took no more.
    package enum Failure: Error, Sendable, Equatable {
        /// A write failed (the client is gone): its errno.
        case closed(Descriptors.Errno)
        /// `cancel` was called (the server stops, or the answer's task was cancelled).
        case cancelled
    }

    private let socket: Int32
    /// The bytes on their way, and a second pipe that gets a copy of them for `look`.
    private let pipe: (read: Int32, write: Int32)
    private let tap: (read: Int32, write: Int32)
    /// How much one `take` moves at most: the pipe's size.
    package let capacity: Int
    /// Bytes in the pipe, not sent yet.
    private var held = 0
    private let scratch: UnsafeMutableRawBufferPointer
    private let cancelled = Atomic<Bool>(false)
    /// Set when the connection took no more; every call after returns at once.
    package private(set) var failure: Failure?

    /// The most asked of the kernel for each pipe (a process without CAP_SYS_RESOURCE gets at most
    /// /proc/sys/fs/pipe-max-size, 1 MiB by default; else both keep the 64 KiB a pipe starts with).
    static let pipeSize = 1 << 20

    /// A sink writing to a duplicate of `socket` (a connected stream socket). Throws when the
    /// descriptors cannot be had, or the two pipes cannot be made the same size (`look` needs the
    /// tap to hold whatever the pipe holds: tee(2) copies whole pipe buffers, from the start).
    package init(duplicating socket: Int32) throws(Descriptors.Errno) {
        let copy = try SystemCall.run { fcntl(socket, F_DUPFD_CLOEXEC, 0) }
        var opened: [Int32] = [copy]
        do throws(Descriptors.Errno) {
            pipe = try Posix.pipe()
            opened += [pipe.read, pipe.write]
            tap = try Posix.pipe()
        } catch {
            for fd in opened { Posix.closeAfterUse(fd) }
            throw error
        }
        self.socket = copy
        // (refused, a pipe keeps the size it has; the two are then made the same or given up)
        _ = cprocess_set_pipe_size(pipe.write, Int32(Self.pipeSize))
        _ = cprocess_set_pipe_size(tap.write, Int32(Self.pipeSize))
        let size = cprocess_pipe_size(pipe.write), tapSize = cprocess_pipe_size(tap.write)
        if size != tapSize, min(size, tapSize) > 0 { _ = cprocess_set_pipe_size(size > tapSize ? pipe.write : tap.write, min(size, tapSize)) }
        let sizes = (cprocess_pipe_size(pipe.write), cprocess_pipe_size(tap.write))
        guard sizes.0 > 0, sizes.0 == sizes.1 else {
            for fd in [copy, pipe.read, pipe.write, tap.read, tap.write] { Posix.closeAfterUse(fd) }
            throw Descriptors.Errno(EINVAL)
        }
        capacity = Int(sizes.0)
        scratch = .allocate(byteCount: capacity, alignment: 64)
    }

    deinit {
        for fd in [socket, pipe.read, pipe.write, tap.read, tap.write] { Posix.closeAfterUse(fd) }
        scratch.deallocate()
    }

    /// Ends the transfer at the sink's next call, or within a second of a wait; from any thread.
    package func cancel() { cancelled.store(true, ordering: .releasing) }

    /// False once cancelled (`failure` set then).
    private func going() -> Bool {
        guard failure == nil else { return false }
        guard !cancelled.load(ordering: .acquiring) else {
            failure = .cancelled
            return false
        }
        return true
    }

    /// Writes all of `bytes`, waiting for the socket: false when the connection took no more
    /// (`failure` says why).
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard flush() else { return false }
        var sent = 0
        while sent < bytes.count {
            let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if count >= 0 {
                sent += count
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN, waitForSocket() else { return fail(code) }
        }
        return true
    }

    /// Moves up to `count` bytes that socket `source` has now into the pipe (at most `capacity`,
    /// and only once the last ones were sent), without waiting: how many (0: the source's end),
    /// or nil when it has none yet. Throws the errno of a failed read of `source`.
    package func take(from source: Int32, count: Int) throws(Descriptors.Errno) -> Int? {
        guard flush(), going() else { return 0 }
        while true {
            let moved = cprocess_splice(source, pipe.write, min(count, capacity), cprocess_splice_move | cprocess_splice_nonblock)
            if moved >= 0 {
                held = moved
                return moved
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN { return nil }
            throw Descriptors.Errno(code)
        }
    }

    /// The bytes the last `take` moved, copied out as well (`tee(2)` into the tap, read from there)
    /// for a check of them; valid until the next call. Nil when they could not all be copied (the
    /// check cannot be made: they must not go). tee copies whole pipe buffers from the pipe's
    /// start; the tap, empty and the pipe's size, takes them all at once.
    package func look() -> UnsafeRawBufferPointer? {
        var teed: Int
        repeat { teed = cprocess_tee(pipe.read, tap.write, held, cprocess_splice_nonblock) } while teed < 0 && errno == EINTR
        var copied = 0
        while copied < max(teed, 0) {
            guard let got = try? Posix.read(tap.read, into: UnsafeMutableRawBufferPointer(rebasing: scratch[copied..<teed])), got > 0 else { break }
            copied += got
        }
        // (short: the transfer ends here, the bytes discarded, the sink used no more)
        return copied == held ? UnsafeRawBufferPointer(rebasing: scratch[..<copied]) : nil
    }

    /// Drops what the pipe holds, unsent: bytes a check refused.
    package func discard() {
        while held > 0 {
            guard let got = try? Posix.read(pipe.read, into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<min(held, scratch.count)])), got > 0 else { break }
            held -= got
        }
        held = 0
    }

    /// Sends what the pipe holds, waiting for the socket: false when the connection took no more.
    @discardableResult
    package func flush() -> Bool {
        guard going() else { return false }
        while held > 0 {
            let count = cprocess_splice(pipe.read, socket, held, cprocess_splice_move | cprocess_splice_nonblock)
            if count > 0 {
                held -= count
                continue
            }
            let code = count == 0 ? EPIPE : errno
            if code == EINTR { continue }
            guard code == EAGAIN, waitForSocket() else { return fail(code) }
        }
        return true
    }

    /// Waits until the socket takes bytes again: false once cancelled (`failure` set).
    private func waitForSocket() -> Bool {
        while true {
            guard going() else { return false }
            var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            // (POLLERR, POLLHUP: the write after says which errno)
            if poll(&entry, 1, 1000) > 0 { return true }
        }
    }

    private func fail(_ code: Int32) -> Bool {
        if failure == nil { failure = .closed(Descriptors.Errno(code)) }
        return false
    }
}
