import HTTPTypes
import Synchronization
import Settings

/// Places for long answers - a video, the live mirror - at most `total` at once and `perClient`
/// from one address (this machine's own, on loopback, only counts toward the total); and beside
/// them `booth` places of the booth's own screen (`KioskRequestContext.isBoothScreen`: loopback with
/// a token), which no crowd can take. A place is held by a `Slot` for as long as its answer is being
/// written, and freed with it, even when the viewer leaves before the first byte.
package final class ClientSlots: Sendable {
    package let name: String
    package let total: Int
    package let perClient: Int
    package let booth: Int
    private let counts = Mutex<(total: Int, booth: Int, clients: [ClientAddress: Int])>((0, 0, [:]))

    package init(_ name: String, total: Int, perClient: Int, booth: Int = 0) {
        self.name = name
        self.total = total
        self.perClient = perClient
        self.booth = booth
    }

    /// A place for an answer to `client` (among the booth's own when `boothScreen`, else the
    /// crowd's), or nil when it must wait (429).
    func take(_ client: ClientAddress, boothScreen: Bool = false) -> Slot? {
        let taken = counts.withLock { counts -> Bool in
            if boothScreen {
                guard counts.booth < booth else { return false }
                counts.booth += 1
                return true
            }
            let mine = counts.clients[client, default: 0]
            guard counts.total < total, client.isLoopback || mine < perClient else { return false }
            counts.total += 1
            counts.clients[client] = mine + 1
            return true
        }
        return taken ? Slot(self, client, boothScreen: boothScreen) : nil
    }

    /// A place for the answer to `context`'s request.
    package func take(for context: KioskRequestContext) -> Slot? {
        take(context.client, boothScreen: context.isBoothScreen)
    }

    fileprivate func give(_ client: ClientAddress, boothScreen: Bool) {
        counts.withLock { counts in
            if boothScreen {
                counts.booth = max(0, counts.booth - 1)
                return
            }
            counts.total = max(0, counts.total - 1)
            let mine = counts.clients[client, default: 1] - 1
            counts.clients[client] = mine > 0 ? mine : nil
        }
    }

    /// Answers being written now (the booth's own and the crowd's).
    package var inUse: Int { counts.withLock { $0.total + $0.booth } }

    /// One place, given back when the last reference to it goes.
    package final class Slot: Sendable {
        private let slots: ClientSlots
        private let client: ClientAddress
        private let boothScreen: Bool

        fileprivate init(_ slots: ClientSlots, _ client: ClientAddress, boothScreen: Bool) {
            self.slots = slots
            self.client = client
            self.boothScreen = boothScreen
        }

        deinit { slots.give(client, boothScreen: boothScreen) }
    }

    /// The 429 for a client that has too many answers of this kind under way.
    package func busy(for context: KioskRequestContext) -> APIError {
        if context.isBoothScreen {
            return APIError(.tooMany, "too many \(name) at once on the booth's screen (at most \(booth)); close one and try again.")
        }
        return APIError(.tooMany, "too many \(name) at once from this address (at most \(perClient)), or from everybody (at most \(total)); close one and try again.")
    }
}
