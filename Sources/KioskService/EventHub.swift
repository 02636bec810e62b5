package import FoundationEssentials
package import NIOCore
import Synchronization

/// Fans kiosk events out to every `/api/events` client as Server-Sent Events. A client that reads
/// slowly loses old events (each stream keeps the newest 32), never slows the kiosk.
package final class EventHub: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<ByteBuffer>.Continuation]>([:])
    /// The last event's `id:`, rising by one per event (a client can tell one it missed).
    private let lastID = Mutex<Int>(0)

    package init() {}

    /// A stream of SSE-framed events for one client; it ends when the client goes away.
    package func subscribe() -> AsyncStream<ByteBuffer> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(32))
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        // A first comment line lets the browser know the stream is open.
        continuation.yield(ByteBuffer(string: ": recorder events\n\n"))
        return stream
    }

    package var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Sends `event` with a one-line JSON `data` to every client.
    package func publish(_ event: String, value: some Encodable) {
        if let json = try? KioskAPI.jsonEncoder.encode(value) { publish(event, json: json) }
    }

    /// Sends `event` with a one-line JSON `data` (already encoded) to every client.
    package func publish(_ event: String, json: Data) {
        let id = lastID.withLock { $0 += 1; return $0 }
        var text = "id: \(id)\nevent: \(event)\ndata: "
        text += String(decoding: json, as: UTF8.self).replacing("\n", with: "")
        text += "\n\n"
        let buffer = ByteBuffer(string: text)
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(buffer) }
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
