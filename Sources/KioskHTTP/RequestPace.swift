import HTTPTypes
import NIOCore
package import NIOHTTP1
import SystemSupport

/// Per connection, right after the HTTP/1 decoder: each request as the client sent it, before any
/// route sees it. It bounds what a slow client can hold with a request's body, which nothing else
/// did (the idle timeout starts again at every part read, so a byte every few seconds kept a
/// connection for ever; 512 of them took every place of the kiosk's):
///
/// - a body larger than its route takes (`BodyLimits`: a login or a delete is a few hundred
///   bytes) is refused by its `Content-Length` at once (413), or as soon as it grows past it;
/// - the whole request must have arrived `wholeRequest` after the connection began waiting for it
///   (it opened, or its last answer ended), and its body, after `grace`, at `minimumRate` bytes a
///   second on average since its head: else the connection is closed;
/// - of one address's connections at most `ConnectionLimits.bodiesPerClient` send a body at once
///   (a phone through the proxy by the address the proxy names: the kiosk's proxy socket, or a
///   share server's `proxies`); another is refused (429).
///
/// A request refused before its head went on gets its answer here (no route ran), and the
/// connection is closed once it is written; one cut while its body arrives is closed unanswered
/// (its route may be answering). It also makes an absolute-form request line's host the request's
/// Host (RFC 9112 3.2.2: the request line's authority is the one that counts), so the guard judges
/// the name the client asked for, whatever Host header it added.
///
/// Its clock is the connection's event loop (`now`, timers): a test's embedded loop moves it.
package final class RequestPace: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request, head and body, must have arrived this long after the connection began waiting
    /// for it: the head's 15 s (`KioskDaemon.idleTimeout`) and a few seconds for a body.
    static let wholeRequest = TimeAmount.seconds(20)
    /// After this long from its head, a body must keep up `minimumRate`.
    static let grace = TimeAmount.seconds(2)
    /// Bytes a second, on average since the head, that a body must come at once `grace` is over
    /// (a 64 KiB body on the slowest phone's link takes a second).
    package static let minimumRate = 1024
    /// How often a body under way is looked at.
    static let tick = TimeAmount.milliseconds(500)

    /// Why a request was refused or cut.
    package enum Refusal: Sendable, Equatable {
        /// Its body is larger than its route takes (the limit).
        case tooLarge(limit: Int)
        /// Its address already sends as many bodies as it may.
        case tooManyBodies
        /// Its body came too slowly, or not whole in time.
        case tooSlow
    }

    private let limits: ConnectionLimits
    private let bodyLimits: BodyLimits
    /// The proxies (addresses) whose `X-Real-IP` names the phone on a TCP listener (a share
    /// server's `serve.proxies`); the kiosk has none (its proxy has a socket of its own).
    private let proxies: Set<String>

    private var waitingSince: NIODeadline?
    /// The request whose body is arriving: when its connection began waiting for it, when its head
    /// came, its limit, the bytes so far, its place.
    private var body: (start: NIODeadline, head: NIODeadline, limit: Int, bytes: Int, place: ConnectionLimits.BodyPlace)?
    /// The request refused: its parts are dropped until the connection closes.
    private var refused = false
    /// Answers under way (heads passed on, answers not ended): a refusal answers only when none is,
    /// so its answer never lands inside another's.
    private var answering = 0
    private var timer: Scheduled<Void>?

    package init(limits: ConnectionLimits, bodyLimits: BodyLimits, proxies: Set<String> = []) {
        self.limits = limits
        self.bodyLimits = bodyLimits
        self.proxies = proxies
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { waitingSince = context.eventLoop.now }
    }

    func channelActive(context: ChannelHandlerContext) {
        waitingSince = context.eventLoop.now
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        body = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        body = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            Self.takeAbsoluteFormHost(&head)
            if let refusal = admit(head, context: context) {
                refuse(refusal, context: context, answered: true)
                return
            }
            answering += 1
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body(let buffer):
            if var current = body {
                current.bytes += buffer.readableBytes
                body = current
                if current.bytes > current.limit {
                    refuse(.tooLarge(limit: current.limit), context: context, answered: false)
                    return
                }
            }
            context.fireChannelRead(data)
        case .end:
            body = nil
            timer?.cancel()
            timer = nil
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answering = max(0, answering - 1)
            // The next request's time starts once this answer is out.
            waitingSince = context.eventLoop.now
        }
        context.write(data, promise: promise)
    }

    /// Whether the request of `head` may send its body: nil, and its body is timed from now, or why not.
    private func admit(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> Refusal? {
        let length = head.headers["Content-Length"].first.flatMap { Int($0.trimmed()) }
        let chunked = !head.headers["Transfer-Encoding"].isEmpty
        guard chunked || (length ?? 0) > 0 else { return nil }
        let limit = bodyLimits.limit(method: head.method.rawValue, target: head.uri)
        if let length, length > limit { return .tooLarge(limit: limit) }
        guard let place = limits.takeBody(client(head, context: context)) else { return .tooManyBodies }
        let now = context.eventLoop.now
        body = (waitingSince ?? now, now, limit, 0, place)
        scheduleCheck(context)
        return nil
    }

    /// Whose body it is: on the kiosk's proxy socket the phone the proxy names; from one of
    /// `proxies` that names one, that phone (as `ServeGuard` counts it); else the connection's address.
    private func client(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> ClientAddress {
        let named = head.headers["X-Real-IP"].first
        if context.channel.localAddress?.protocol == .unix { return ClientAddress(forwarded: named) }
        let remote = ClientAddress(context.channel.remoteAddress)
        if let named, proxies.contains(remote.address) { return ClientAddress(forwarded: named) }
        return remote
    }

    private func scheduleCheck(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.tick) { [self] in
            self.timer = nil
            guard let current = self.body else { return }
            let now = context.eventLoop.now
            let sinceHead = now - current.head
            // (its own start: an answer written early, before its body ended, starts no new time)
            let late = current.start + Self.wholeRequest <= now
            let owed = sinceHead > Self.grace ? Int((sinceHead - Self.grace).nanoseconds / 1_000_000) * Self.minimumRate / 1000 : 0
            if late || current.bytes < min(owed, current.limit) {
                self.refuse(.tooSlow, context: context, answered: false)
            } else {
                self.scheduleCheck(context)
            }
        }
    }

    /// Refuses the request: answered here when its head was not passed on and no other answer is
    /// under way, and the connection closed (once the answer is written).
    private func refuse(_ refusal: Refusal, context: ChannelHandlerContext, answered: Bool) {
        refused = true
        body = nil
        timer?.cancel()
        timer = nil
        guard answered, answering == 0 else {
            context.close(promise: nil)
            return
        }
        let error = refusal.error
        let json = ByteBuffer(bytes: error.json)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(json.readableBytes))
        headers.add(name: "Connection", value: "close")
        if refusal == .tooManyBodies { headers.add(name: "Retry-After", value: "1") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: error.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(json))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolatedUnsafeUnchecked().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// For an absolute-form target (`http://name/path`), the one Host is the target's authority.
    static func takeAbsoluteFormHost(_ head: inout HTTPRequestHead) {
        guard !head.uri.hasPrefix("/"), head.uri != "*", let schemeEnd = head.uri.firstRange(of: "://") else { return }
        let rest = head.uri[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // (userinfo is no part of a host: "user@name" asks for name)
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        head.headers.remove(name: "Host")
        head.headers.add(name: "Host", value: host)
    }
}

extension RequestPace.Refusal {
    /// The API's failure for it (its JSON is the answer, when there is one).
    package var error: APIError {
        switch self {
        case .tooLarge(let limit):
            APIError(.tooLarge, "the request body is larger than this request takes (at most \(limit) bytes).")
        case .tooManyBodies:
            APIError(.tooMany, "this address is sending too many request bodies at once (at most \(ConnectionLimits.bodiesPerClient)); wait for one to end.")
        case .tooSlow:
            APIError(.tooSlow, "the request did not arrive whole in time (a body must come at \(RequestPace.minimumRate) bytes a second or more).")
        }
    }
}
