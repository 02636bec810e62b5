package import FoundationEssentials
import Synchronization

/// What the kiosk remembers of its own recent past for its heartbeat (`fleet.heartbeat_seconds`):
/// since when the camera is missing, when the last post reached the store, the last shot's
/// encoder, and how its last heartbeat fared. Told by the camera's and the drain's observers and
/// by the heartbeat's writer; read when a heartbeat or a scrape is made.
package final class BoothHistory: Sendable {
    package struct Facts: Sendable, Equatable {
        /// When the camera went missing (the kiosk's clock); nil while it is present.
        package var cameraMissingSince: ContinuousClock.Instant?
        /// When the last post reached the store (wall clock).
        package var lastPostAt: Date?
        /// The last shot's encoder: libx264, or copy.
        package var encoder: String?
        /// When a heartbeat last reached the store.
        package var heartbeatWrittenAt: ContinuousClock.Instant?
        /// Why the heartbeats fail, in the operator's words, and since when; nil once one is written.
        package var heartbeatFailure: (since: ContinuousClock.Instant, words: String)?

        package static func == (a: Facts, b: Facts) -> Bool {
            a.cameraMissingSince == b.cameraMissingSince && a.lastPostAt == b.lastPostAt && a.encoder == b.encoder
                && a.heartbeatWrittenAt == b.heartbeatWrittenAt && a.heartbeatFailure?.since == b.heartbeatFailure?.since
                && a.heartbeatFailure?.words == b.heartbeatFailure?.words
        }
    }

    private let facts = Mutex(Facts())

    package init() {}

    package var now: Facts { facts.withLock { $0 } }

    /// The camera is present or not, as of `at`.
    package func camera(present: Bool, at: ContinuousClock.Instant) {
        facts.withLock { facts in
            if present {
                facts.cameraMissingSince = nil
            } else if facts.cameraMissingSince == nil {
                facts.cameraMissingSince = at
            }
        }
    }

    package func posted(at: Date) { facts.withLock { $0.lastPostAt = at } }

    package func shotEncoded(by encoder: String) { facts.withLock { $0.encoder = encoder } }

    /// A heartbeat reached the store.
    package func heartbeatWritten(at: ContinuousClock.Instant) {
        facts.withLock {
            $0.heartbeatWrittenAt = at
            $0.heartbeatFailure = nil
        }
    }

    /// A heartbeat did not reach the store (`words`: why).
    package func heartbeatFailed(at: ContinuousClock.Instant, words: String) {
        facts.withLock { facts in
            facts.heartbeatFailure = (facts.heartbeatFailure?.since ?? at, words)
        }
    }
}
