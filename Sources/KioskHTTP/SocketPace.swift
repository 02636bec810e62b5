import NIOCore
package import SystemSupport

/// Per connection: the writes handed down the pipeline that the socket has not taken yet, so that
/// an answer sent a chunk at a time reads its next chunk only once the socket took the last one.
///
/// Waiting for the previous `write` call is not enough: Hummingbird's writer (NIO's
/// `NIOAsyncChannelOutboundWriter`) returns as soon as the write is queued for the connection's
/// event loop, and tells "not writable" only after the loop has run it and the channel's buffer
/// passed its high-water mark. A busy loop with a crowd on it runs those writes late, so every
/// answer read dozens of chunks ahead of a reader that never took one: 4.3 MiB a stalled reader
/// measured (260 of them: 1.1 GiB, landed main at cc12353). Here a write counts until its promise
/// completes, which NIO does once the socket took every byte of it (or the connection failed).
///
/// The socket's own buffer is bounded as well (`sendBuffer`): the kernel grows a TCP send buffer
/// up to 4 MiB for a peer that does not read (on loopback, nginx's side), and that memory is the
/// kiosk's cgroup's (`MemoryMax`), not the reader's.
package final class SocketPace: ChannelDuplexHandler, RemovableChannelHandler {
    // It passes every part through as it is, never unwrapping one.
    typealias InboundIn = Any
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    /// The kernel's send buffer asked for each connection (Linux doubles it for its bookkeeping:
    /// 256 KiB in all). A phone 20 ms away still gets about 8 MB/s, five times a 1080p clip's rate.
    static let sendBuffer = 128 * 1024

    private var untaken = 0
    private var channel: (any Channel)?
    private var waiters: [EventLoopPromise<Void>] = []
    private var open = true
    /// The sink an answer writes through now, if any: cancelled when the connection closes (NIO
    /// closing its descriptor leaves the connection to the sink's duplicate, writing on).
    private weak var sink: SocketSink?

    package init() {}

    func handlerAdded(context: ChannelHandlerContext) {
        // SO_SNDBUF locks the size (no autotuning beyond it); a socket that refuses it keeps its own.
        try? context.channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: SocketOptionValue(Self.sendBuffer))
        channel = context.channel
    }

    /// A sink on a duplicate of this connection's socket; nil for a channel without one.
    private func makeSink() -> SocketSink? {
        guard open, let channel else { return nil }
        let made = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) { socket in
            try SocketSink(duplicating: socket)
        } ?? nil
        sink = made
        return made
    }

    /// Asks the kernel for a send buffer of `bytes` (capped by net.core.wmem_max) for this connection.
    private func widen(to bytes: Int) {
        try? channel?.syncOptions?.setOption(.socketOption(.so_sndbuf), value: SocketOptionValue(bytes))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        untaken += 1
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.untaken -= 1
            if self.untaken == 0 { self.wake() }
        }
        context.write(data, promise: written)
    }

    func channelInactive(context: ChannelHandlerContext) {
        open = false
        sink?.cancel()
        wake()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        channel = nil
        open = false
        sink?.cancel()
        wake()
    }

    /// Succeeds once every write so far was taken by the socket; fails when the connection is gone.
    private func whenTaken(_ loop: any EventLoop) -> EventLoopFuture<Void> {
        guard open else { return loop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        guard untaken > 0 else { return loop.makeSucceededVoidFuture() }
        let promise = loop.makePromise(of: Void.self)
        waiters.append(promise)
        return promise.futureResult
    }

    private func wake() {
        let waiting = waiters
        waiters.removeAll()
        for promise in waiting {
            if open { promise.succeed() } else { promise.fail(ChannelError.ioOnClosedChannel) }
        }
    }

    /// An answer's way to wait for its connection's socket, from any task.
    package struct Handle: Sendable {
        private let loop: any EventLoop
        private let pace: NIOLoopBound<SocketPace>

        fileprivate init(_ pace: SocketPace, loop: any EventLoop) {
            self.loop = loop
            self.pace = NIOLoopBound(pace, eventLoop: loop)
        }

        /// Returns once the socket has taken everything written so far; throws when the connection
        /// is gone. Runs after the writes queued before it (the loop runs its tasks in order).
        package func taken() async throws {
            let pace = self.pace, loop = self.loop
            try await loop.flatSubmit { pace.value.whenTaken(loop) }.get()
        }

        /// The rest of the answer written by the caller straight to the connection's socket
        /// (`SocketSink`), once the socket has taken everything written so far (the answer's head):
        /// nil where the channel has no socket to give. Nothing else may be written on the
        /// connection until the sink is done; its bytes go out as they are (no TLS in the process).
        package func sink() async -> SocketSink? {
            guard (try? await taken()) != nil else { return nil }
            let pace = self.pace
            return try? await loop.submit { pace.value.makeSink() }.get()
        }

        /// A larger send buffer for this connection than a phone's: for an answer that is sent as
        /// fast as the network takes it (a host's Download all), fewer wake-ups per byte.
        package func widen(to bytes: Int) async {
            let pace = self.pace
            try? await loop.submit { pace.value.widen(to: bytes) }.get()
        }
    }

    /// The pace of `channel`'s connection; nil for a channel without one (the in-process tests' own).
    static func handle(of channel: (any Channel)?) async -> Handle? {
        guard let channel else { return nil }
        let loop = channel.eventLoop
        return try? await loop.submit { () throws -> Handle in
            Handle(try channel.pipeline.syncOperations.handler(type: SocketPace.self), loop: loop)
        }.get()
    }
}
