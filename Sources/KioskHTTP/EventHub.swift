package import FoundationEssentials
package import NIOCore
import Synchronization

/// Fans kiosk events out to every `/api/events` client as Server-Sent Events. A client that reads
/// slowly loses old events (each stream keeps the newest 32), never slows the kiosk. At most
/// `limit` clients at once: the booth's page and the operator's need one each, and each costs a
/// status for every change.
package final class EventHub: Sendable {
    /// The most clients at once; the next is told to wait (429).
    package static let limit = 16

    private let subscribers = Mutex<[UUID: AsyncStream<ByteBuffer>.Continuation]>([:])
    /// The last event's `id:`, rising by one per event (a client can tell one it missed).
    private let lastID = Mutex<Int>(0)

    package init() {}

    /// One client's stream of SSE-framed events, which ends when the client goes away, and its
    /// place among the subscribers (for `send(_:value:to:)`).
    package struct Subscription: Sendable {
        package let id: UUID
        package let stream: AsyncStream<ByteBuffer>
    }

    /// A stream of events for one more client; nil when `limit` clients have one already.
    package func subscribe() -> Subscription? {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let added = subscribers.withLock { subscribers -> Bool in
            guard subscribers.count < Self.limit else { return false }
            subscribers[id] = continuation
            return true
        }
        guard added else { return nil }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        // A first comment line lets the browser know the stream is open.
        continuation.yield(ByteBuffer(string: ": recorder events\n\n"))
        return Subscription(id: id, stream: stream)
    }

    package var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Sends `event` with a one-line JSON `data` to every client.
    package func publish(_ event: String, value: some Encodable) {
        if let json = try? HTTPAnswer.jsonEncoder.encode(value) { publish(event, json: json) }
    }

    /// Sends `event` with a one-line JSON `data` (already encoded) to every client.
    package func publish(_ event: String, json: Data) {
        let id = lastID.withLock { $0 += 1; return $0 }
        let buffer = Self.frame(event, json: json, id: id)
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(buffer) }
    }

    /// Sends `event` to one client alone (a new client's first status: the others have it). It
    /// carries the last event's id, so the client's next event is one more, as for everybody.
    package func send(_ event: String, value: some Encodable, to subscriber: UUID) {
        guard let json = try? HTTPAnswer.jsonEncoder.encode(value) else { return }
        let buffer = Self.frame(event, json: json, id: lastID.withLock { $0 })
        subscribers.withLock { $0[subscriber] }?.yield(buffer)
    }

    private static func frame(_ event: String, json: Data, id: Int) -> ByteBuffer {
        var text = "id: \(id)\nevent: \(event)\ndata: "
        text += String(decoding: json, as: UTF8.self).replacing("\n", with: "")
        text += "\n\n"
        return ByteBuffer(string: text)
    }

    /// A comment line, so proxies and browsers keep an idle stream open and dead clients are found.
    package func keepAlive() {
        let buffer = ByteBuffer(string: ": keep-alive\n\n")
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(buffer) }
    }

    /// Ends every stream (at shutdown, so the HTTP server can close its connections).
    package func finishAll() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
