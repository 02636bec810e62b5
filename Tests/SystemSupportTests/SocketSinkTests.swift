import Glibc
import SystemSupport
import Testing

/// `SocketSink`: real TCP connections on loopback, one the server's (non-blocking, as NIO keeps
/// it), bytes spliced into it from another, and a client that is gone or stops reading.
@Suite struct SocketSinkTests {
    /// A connected pair on loopback: the accepted end (non-blocking) and the client's end.
    private func connection() throws -> (server: Int32, client: Int32) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(bind(listener, raw, length) == 0 && listen(listener, 1) == 0)
                try #require(getsockname(listener, raw, &length) == 0)
            }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                try #require(connect(client, raw, length) == 0)
            }
        }
        let server = accept(listener, nil, nil)
        try #require(server >= 0)
        _ = fcntl(server, F_SETFL, fcntl(server, F_GETFL) | O_NONBLOCK)
        return (server, client)
    }

    private func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
    }

    /// Reads `fd` to its end on a thread of its own: the bytes, once joined.
    private final class Drain: @unchecked Sendable {
        private var thread = pthread_t()
        private let fd: Int32
        var bytes: [UInt8] = []

        init(_ fd: Int32) {
            self.fd = fd
            let box = Unmanaged.passRetained(self).toOpaque()
            pthread_create(&thread, nil, { raw in
                let drain = Unmanaged<Drain>.fromOpaque(raw!).takeRetainedValue()
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(drain.fd, $0.baseAddress!, $0.count) }
                    guard count > 0 else { break }
                    drain.bytes += chunk[..<count]
                }
                return nil
            }, box)
        }

        func join() -> [UInt8] {
            pthread_join(thread, nil)
            return bytes
        }
    }

    @Test func bytesFromAnotherSocketArriveAsTheyWereWithTheirCopyShown() throws {
        let source = try connection(), target = try connection()
        defer { for fd in [source.server, source.client, target.server, target.client] { close(fd) } }
        let sent = pattern(3 << 20 + 12_345)
        let drain = Drain(target.client)
        var shown: [UInt8] = []
        do {
            let sink = try SocketSink(duplicating: target.server)
            #expect(Array("head".utf8).withUnsafeBytes { sink.write($0) })
            // The store's side writes as it can; the sink takes what has come, a pipe's worth at most.
            var written = 0, moved = 0
            while moved < sent.count {
                if written < sent.count {
                    let count = sent.withUnsafeBytes { send(source.client, $0.baseAddress! + written, min(sent.count - written, 1 << 18), Int32(MSG_DONTWAIT)) }
                    if count > 0 { written += count }
                }
                guard let taken = try sink.take(from: source.server, count: sent.count - moved) else { continue }
                try #require(taken > 0 && taken <= sink.capacity)
                shown += try #require(sink.look())
                #expect(sink.flush())
                moved += taken
            }
            #expect(Array("tail".utf8).withUnsafeBytes { sink.write($0) })
        }
        // Released: its duplicate closed; the server's own descriptor still writes.
        #expect(shown == sent)
        let last: [UInt8] = Array("!".utf8)
        #expect(last.withUnsafeBytes { send(target.server, $0.baseAddress!, 1, 0) } == 1)
        shutdown(target.server, Int32(SHUT_WR))
        #expect(drain.join() == Array("head".utf8) + sent + Array("tail!".utf8))
    }

    @Test func aClientThatIsGoneFailsTheSinkWithItsErrno() throws {
        let target = try connection()
        defer { close(target.server) }
        // Gone at once: its close answered with a reset (no lingering).
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(target.client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(target.client)
        let sink = try SocketSink(duplicating: target.server)
        let bytes = pattern(1 << 20)
        var wrote = true
        for _ in 0..<8 where wrote { wrote = bytes.withUnsafeBytes { sink.write($0) } }
        #expect(!wrote)
        guard case .closed(let error) = sink.failure else {
            Issue.record("no failure kept: \(String(describing: sink.failure))")
            return
        }
        #expect(error.code == EPIPE || error.code == ECONNRESET)
        // Nothing more is tried once it failed.
        #expect(!sink.flush())
    }

    @Test func aCancelledSinkTakesNothingMoreEvenWithBytesWaiting() throws {
        let source = try connection(), target = try connection()
        defer { for fd in [source.server, source.client, target.server, target.client] { close(fd) } }
        let sink = try SocketSink(duplicating: target.server)
        let bytes = pattern(1 << 16)
        #expect(bytes.withUnsafeBytes { send(source.client, $0.baseAddress!, $0.count, 0) } == bytes.count)
        var ready = pollfd(fd: source.server, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, 10_000) == 1)
        sink.cancel()
        // (the client reads: nothing waits, and still nothing more goes)
        #expect(try sink.take(from: source.server, count: bytes.count) == 0)
        #expect(sink.failure == .cancelled)
        #expect(!bytes.withUnsafeBytes { sink.write($0) })
    }

    @Test func aCancelledSinkStopsWaitingForAClientThatStoppedReading() throws {
        let target = try connection()
        defer { close(target.server); close(target.client) }
        let sink = try SocketSink(duplicating: target.server)
        // Far more than the socket holds: the write waits for a client that never reads, on a
        // thread of its own, until the cancel (whenever it comes) ends it.
        let writing = Background { pattern(64 << 20).withUnsafeBytes { sink.write($0) } }
        usleep(200_000)
        sink.cancel()
        #expect(writing.join() == false)
        #expect(sink.failure == .cancelled)
    }

    /// `work` run on a thread of its own; its result once joined.
    private final class Background: @unchecked Sendable {
        private var thread = pthread_t()
        private let work: () -> Bool
        private var result = true

        init(_ work: @escaping () -> Bool) {
            self.work = work
            pthread_create(&thread, nil, { raw in
                let background = Unmanaged<Background>.fromOpaque(raw!).takeRetainedValue()
                background.result = background.work()
                return nil
            }, Unmanaged.passRetained(self).toOpaque())
        }

        func join() -> Bool {
            pthread_join(thread, nil)
            return result
        }
    }
}
