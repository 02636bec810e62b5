import HTTPTypes
import Synchronization
import Settings

/// Places for long answers - a video, the live mirror, an event stream - at most `total` at once
/// and `perClient` from one address (this machine's own, on loopback, only counts toward the
/// total); and beside them `booth` places of the booth's own screen
/// (`KioskRequestContext.isBoothScreen`: loopback with a token) and `operator` places of the
/// operator's token (taken before the crowd's), which no crowd can take. A place is held by a
/// `Slot` for as long as its answer is being written, and freed with it, even when the viewer
/// leaves before the first byte.
package final class ClientSlots: Sendable {
    package let name: String
    package let total: Int
    package let perClient: Int
    package let booth: Int
    package let `operator`: Int
    private let counts = Mutex<(total: Int, booth: Int, operator: Int, clients: [ClientAddress: Int])>((0, 0, 0, [:]))

    package init(_ name: String, total: Int, perClient: Int, booth: Int = 0, operator: Int = 0) {
        self.name = name
        self.total = total
        self.perClient = perClient
        self.booth = booth
        self.operator = `operator`
    }

    /// Whose places a slot was taken from.
    fileprivate enum Kind { case booth, `operator`, crowd }

    /// A place for an answer to `client` (among the booth's own when `boothScreen`; the operator's,
    /// then the crowd's, for the operator's token; else the crowd's), or nil when it must wait (429).
    func take(_ client: ClientAddress, boothScreen: Bool = false, operator: Bool = false) -> Slot? {
        let kind = counts.withLock { counts -> Kind? in
            if boothScreen {
                guard counts.booth < booth else { return nil }
                counts.booth += 1
                return .booth
            }
            if `operator` && counts.operator < self.operator {
                counts.operator += 1
                return .operator
            }
            let mine = counts.clients[client, default: 0]
            guard counts.total < total, client.isLoopback || mine < perClient else { return nil }
            counts.total += 1
            counts.clients[client] = mine + 1
            return .crowd
        }
        return kind.map { Slot(self, client, kind: $0) }
    }

    /// A place for the answer to `context`'s request.
    package func take(for context: KioskRequestContext) -> Slot? {
        take(context.client, boothScreen: context.isBoothScreen, operator: context.identity?.role == .operator)
    }

    fileprivate func give(_ client: ClientAddress, kind: Kind) {
        counts.withLock { counts in
            switch kind {
            case .booth:
                counts.booth = max(0, counts.booth - 1)
                return
            case .operator:
                counts.operator = max(0, counts.operator - 1)
                return
            case .crowd: break
            }
            counts.total = max(0, counts.total - 1)
            let mine = counts.clients[client, default: 1] - 1
            counts.clients[client] = mine > 0 ? mine : nil
        }
    }

    /// Answers being written now (the booth's own, the operator's and the crowd's).
    package var inUse: Int { counts.withLock { $0.total + $0.booth + $0.operator } }

    /// One place, given back when the last reference to it goes.
    package final class Slot: Sendable {
        private let slots: ClientSlots
        private let client: ClientAddress
        private let kind: Kind

        fileprivate init(_ slots: ClientSlots, _ client: ClientAddress, kind: Kind) {
            self.slots = slots
            self.client = client
            self.kind = kind
        }

        deinit { slots.give(client, kind: kind) }
    }

    /// The 429 for a client that has too many answers of this kind under way.
    package func busy(for context: KioskRequestContext) -> APIError {
        if context.isBoothScreen {
            return APIError(.tooMany, "too many \(name) at once on the booth's screen (at most \(booth)); close one and try again.")
        }
        return APIError(.tooMany, "too many \(name) at once from this address (at most \(perClient)), or from everybody (at most \(total)); close one and try again.")
    }
}
