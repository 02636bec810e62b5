import FoundationEssentials
import HTTPTypes
import Logging
import Synchronization
import SystemSupport

/// Changes the event stream should tell its clients about, as a queue with one consumer.
/// (A task per change, as before, let a stale status overtake a fresh one.)
final class Announcements: Sendable {
    private let stream: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        // A client only needs the latest status; 64 pending kinds is far more than ever queue.
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    func call(_ kind: String) { continuation.yield(kind) }

    func finish() { continuation.finish() }

    /// Runs `body` for each change in order; returns after `finish()` or when cancelled.
    func forEach(_ body: (String) async -> Void) async {
        for await kind in stream { await body(kind) }
    }
}
