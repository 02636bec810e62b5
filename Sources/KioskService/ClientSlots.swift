import HTTPTypes
import Synchronization
import Settings

/// Places for long answers - a video, the live mirror - at most `total` at once and `perClient`
/// from one address (the booth's own, on loopback, only counts toward the total). A place is held
/// by a `Slot` for as long as its answer is being written, and freed with it, even when the viewer
/// leaves before the first byte.
package final class ClientSlots: Sendable {
    package let name: String
    package let total: Int
    package let perClient: Int
    private let counts = Mutex<(total: Int, clients: [ClientAddress: Int])>((0, [:]))

    package init(_ name: String, total: Int, perClient: Int) {
        self.name = name
        self.total = total
        self.perClient = perClient
    }

    /// A place for an answer to `client`, or nil when it must wait (429).
    func take(_ client: ClientAddress) -> Slot? {
        let taken = counts.withLock { counts -> Bool in
            let mine = counts.clients[client, default: 0]
            guard counts.total < total, client.isLoopback || mine < perClient else { return false }
            counts.total += 1
            counts.clients[client] = mine + 1
            return true
        }
        return taken ? Slot(self, client) : nil
    }

    fileprivate func give(_ client: ClientAddress) {
        counts.withLock { counts in
            counts.total = max(0, counts.total - 1)
            let mine = counts.clients[client, default: 1] - 1
            counts.clients[client] = mine > 0 ? mine : nil
        }
    }

    /// Answers being written now.
    package var inUse: Int { counts.withLock { $0.total } }

    /// One place, given back when the last reference to it goes.
    final class Slot: Sendable {
        private let slots: ClientSlots
        private let client: ClientAddress

        fileprivate init(_ slots: ClientSlots, _ client: ClientAddress) {
            self.slots = slots
            self.client = client
        }

        deinit { slots.give(client) }
    }

    /// The 429 for a client that has too many answers of this kind under way.
    func busy() -> APIError {
        APIError(.tooManyRequests, "too many \(name) at once from this address (at most \(perClient)); close one and try again.", kind: .busy)
    }
}
