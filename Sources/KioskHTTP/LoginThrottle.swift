package import SystemSupport
import Synchronization

/// Slows down guessing, and never refuses a right token. A token is judged first: a right one is
/// let in whatever came from its address before (a guest guessing from the booth's network cannot
/// keep the operator out). A wrong one (at `/login`, as a bearer token, or a session cookie with a
/// forged MAC) is counted against its address: after `freeFailures` the address is slowed, twice
/// as long at each further wrong token (up to `longestBlockSeconds`), and while it is, each wrong
/// token's answer (429 with `Retry-After`) is held back up to `longestHoldSeconds` before it goes
/// out, so a connection makes one guess per hold and the per-client connection cap bounds the rate.
///
/// An IPv6 client is counted per address, and its /64 (which one machine may hold whole, to draw
/// new addresses from) has a budget of its own, `freeFailuresPerNetwork`: one phone guessing slows
/// that phone, not its neighbours on the same Wi-Fi, and a phone that changes its address for
/// every guess is slowed with its whole /64 once the budget is spent. The table is bounded
/// (`maximumClients`): the quietest clients that are not slowed are forgotten first, a client
/// being slowed never is, and when every entry is one, a wrong token from a new client is slowed
/// as theirs are.
package final class LoginThrottle: Sendable {
    package static let freeFailures = 5
    package static let freeFailuresPerNetwork = 20
    package static let longestBlockSeconds = 900.0
    /// The longest a wrong token's answer is held back: under the 15 s a request's head may take,
    /// so holding answers never keeps connections longer than a slow client could anyway.
    package static let longestHoldSeconds = 10
    static let forgetAfterSeconds = 3600.0
    static let maximumClients = 4096

    private struct Record {
        var failures = 0
        var blockedUntil: ContinuousClock.Instant?
        var lastSeen: ContinuousClock.Instant

        func blocked(at now: ContinuousClock.Instant) -> Bool { blockedUntil.map { $0 > now } ?? false }
    }

    private let records = Mutex<[String: Record]>([:])
    /// The time it counts by: the kiosk's clock, or a test's, which stands still (a block that
    /// never runs out while a loaded machine answers slowly).
    private let clock: any RecorderClock
    /// How a wrong token's answer is held back (a sleep on the clock; a test's records it and returns).
    private let holding: @Sendable (Duration) async -> Void

    package init(clock: any RecorderClock = .system, hold: (@Sendable (Duration) async -> Void)? = nil) {
        self.clock = clock
        // (a cancelled hold answers at once: the client has gone)
        holding = hold ?? { [clock] duration in try? await clock.sleep(for: duration) }
    }

    /// The keys a client's wrong tokens count against: its address, and an IPv6 address's /64.
    private static func keys(_ client: ClientAddress) -> (address: String, network: String?) {
        (client.address, client.key != client.address ? "net " + client.key : nil)
    }

    /// Seconds a wrong token from `client` would still have to wait now, or nil when it is not slowed.
    package func wait(_ client: ClientAddress, now: ContinuousClock.Instant? = nil) -> Int? {
        let now = now ?? clock.now
        let (address, network) = Self.keys(client)
        return records.withLock { table in
            let until = [table[address]?.blockedUntil, network.flatMap { table[$0]?.blockedUntil }].compactMap { $0 }.filter { $0 > now }.max()
            return until.map { Self.seconds(now.duration(to: $0)) }
        }
    }

    /// A wrong token from `client`; returns the seconds it must now wait, if any.
    @discardableResult
    package func failed(_ client: ClientAddress, now: ContinuousClock.Instant? = nil) -> Int? {
        let now = now ?? clock.now
        let (address, network) = Self.keys(client)
        return records.withLock { table in
            var waits: [Int] = []
            for (key, free) in [(address, Self.freeFailures), (network, Self.freeFailuresPerNetwork)] {
                guard let key else { continue }
                guard table[key] != nil || Self.makeRoom(&table, now: now) else {
                    // Every entry is a client being slowed: this one is slowed as they are, and
                    // none of them is forgotten to make room.
                    waits.append(Self.longestHoldSeconds)
                    continue
                }
                var record = table[key] ?? Record(lastSeen: now)
                if now - record.lastSeen > .seconds(Self.forgetAfterSeconds), !record.blocked(at: now) { record = Record(lastSeen: now) }
                record.failures += 1
                record.lastSeen = now
                if record.failures > free {
                    let seconds = min(Self.longestBlockSeconds, Double(1 << min(record.failures - free, 20)))
                    let until = max(record.blockedUntil ?? now, now + .seconds(seconds))
                    record.blockedUntil = until
                    waits.append(Self.seconds(now.duration(to: until)))
                }
                table[key] = record
            }
            return waits.max()
        }
    }

    /// A right token from `client`: its address's failures are forgotten (its /64's budget is not
    /// given back: a right token from one address says nothing of the others).
    package func succeeded(_ client: ClientAddress) {
        _ = records.withLock { $0.removeValue(forKey: client.address) }
    }

    /// Holds back the answer to a wrong token from a client that must wait `seconds`.
    package func slow(_ seconds: Int) async {
        await holding(.seconds(min(seconds, Self.longestHoldSeconds)))
    }

    /// Whether the table has room for one more client, after forgetting what may be forgotten:
    /// first whoever has been quiet past `forgetAfterSeconds`, then the quietest of the clients
    /// not being slowed. A client being slowed is never forgotten.
    private static func makeRoom(_ table: inout [String: Record], now: ContinuousClock.Instant) -> Bool {
        guard table.count >= maximumClients else { return true }
        table = table.filter { _, record in now - record.lastSeen < .seconds(forgetAfterSeconds) || record.blocked(at: now) }
        guard table.count >= maximumClients else { return true }
        let quietest = table.filter { !$0.value.blocked(at: now) }.sorted { $0.value.lastSeen < $1.value.lastSeen }
            .prefix(maximumClients / 4).map(\.key)
        for key in quietest { table.removeValue(forKey: key) }
        return table.count < maximumClients
    }

    /// Whole seconds, rounded up, at least 1.
    private static func seconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0))
    }
}
