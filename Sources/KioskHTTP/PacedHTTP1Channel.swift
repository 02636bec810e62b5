package import HummingbirdCore
package import Logging
package import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 connection with `RequestPace` right after the HTTP/1 decoder, where each
/// request is still as the client sent it (its request line's host, its body as it arrives).
/// Hummingbird's own handlers (`additionalChannelHandlers`) come after its conversion of the head,
/// which drops an absolute-form target's host.
package struct PacedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    package typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let pace: @Sendable () -> RequestPace

    package init(_ inner: HTTP1Channel, pace: @escaping @Sendable () -> RequestPace) {
        self.inner = inner
        self.pace = pace
    }

    package var responder: HTTPChannelHandler.Responder { inner.responder }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(pace(), position: .after(decoder.handler))
            return value
        }
    }

    package func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }

    /// The HTTP/1 server of `configuration`, each connection paced.
    package static func server(_ configuration: HTTP1Channel.Configuration, pace: @escaping @Sendable () -> RequestPace) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in PacedHTTP1Channel(HTTP1Channel(responder: responder, configuration: configuration), pace: pace) }
    }
}
