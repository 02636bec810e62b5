package import FoundationEssentials
package import NIOCore
import Synchronization

/// Fans kiosk events out to every `/api/events` client as Server-Sent Events. A client that reads
/// slowly loses old events (each stream keeps the newest 32), never slows the kiosk. How many may
/// listen is the route's (`KioskLimits.events`: the booth's screen and the operator have places of
/// their own). A client with the booth's token hears the booth's view of each event (`publish`'s
/// `boothValue`), never the operator's.
package final class EventHub: Sendable {
    /// Who hears an event's whole value, and who the booth's view.
    package enum Audience: Sendable {
        case booth
        case `operator`
    }

    private let subscribers = Mutex<[UUID: (continuation: AsyncStream<ByteBuffer>.Continuation, audience: Audience)]>([:])
    /// The last event's `id:`, rising by one per event (a client can tell one it missed).
    private let lastID = Mutex<Int>(0)

    package init() {}

    /// One client's stream of SSE-framed events, which ends when the client goes away, and its
    /// place among the subscribers (for `send(_:value:to:)`).
    package struct Subscription: Sendable {
        package let id: UUID
        package let stream: AsyncStream<ByteBuffer>
    }

    /// A stream of events for one more client, who hears them as `audience`.
    package func subscribe(_ audience: Audience = .operator) -> Subscription {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(32))
        subscribers.withLock { $0[id] = (continuation, audience) }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        // A first comment line lets the browser know the stream is open.
        continuation.yield(ByteBuffer(string: ": recorder events\n\n"))
        return Subscription(id: id, stream: stream)
    }

    package var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Sends `event` with a one-line JSON `data` to every client: `value`, and to the booth's
    /// token's clients `boothValue` when there is one.
    package func publish<Value: Encodable>(_ event: String, value: Value, boothValue: Value? = nil) {
        guard let json = try? HTTPAnswer.jsonEncoder.encode(value) else { return }
        publish(event, json: json, boothJSON: boothValue.flatMap { try? HTTPAnswer.jsonEncoder.encode($0) })
    }

    /// Sends `event` with a one-line JSON `data` (already encoded) to every client (`boothJSON` to
    /// the booth's token's, when given).
    package func publish(_ event: String, json: Data, boothJSON: Data? = nil) {
        let id = lastID.withLock { $0 += 1; return $0 }
        let buffer = Self.frame(event, json: json, id: id)
        let boothBuffer = boothJSON.map { Self.frame(event, json: $0, id: id) } ?? buffer
        for (continuation, audience) in subscribers.withLock({ Array($0.values) }) {
            continuation.yield(audience == .booth ? boothBuffer : buffer)
        }
    }

    /// Sends `event` to one client alone (a new client's first status: the others have it). It
    /// carries the last event's id, so the client's next event is one more, as for everybody.
    package func send(_ event: String, value: some Encodable, to subscriber: UUID) {
        guard let json = try? HTTPAnswer.jsonEncoder.encode(value) else { return }
        let buffer = Self.frame(event, json: json, id: lastID.withLock { $0 })
        subscribers.withLock { $0[subscriber]?.continuation }?.yield(buffer)
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
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.continuation.yield(buffer) }
    }

    /// Ends every stream (at shutdown, so the HTTP server can close its connections).
    package func finishAll() {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.continuation.finish() }
    }
}
