import Synchronization

/// Slows down guessing: a client that presented wrong tokens (at `/login`, as a bearer token or
/// as a session cookie) more than `freeFailures` times is refused for a while, twice as long at
/// each further failure (up to `longestBlockSeconds`), on every request that presents a token or
/// logs in. A success forgets its failures. The table is bounded (`maximumClients`, the quietest
/// forgotten first), so a flood of addresses cannot fill memory.
package final class LoginThrottle: Sendable {
    package static let freeFailures = 5
    package static let longestBlockSeconds = 900.0
    static let forgetAfterSeconds = 3600.0
    static let maximumClients = 4096

    private struct Record {
        var failures = 0
        var blockedUntil: ContinuousClock.Instant?
        var lastSeen: ContinuousClock.Instant
    }

    private let records = Mutex<[ClientAddress: Record]>([:])
    /// The time it counts by: the clock's, or a test's frozen one (a block that never runs out
    /// while a loaded machine answers slowly).
    private let clock: @Sendable () -> ContinuousClock.Instant

    package init(clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.clock = clock
    }

    /// Seconds `client` must still wait, or nil when it may try.
    package func wait(_ client: ClientAddress, now: ContinuousClock.Instant? = nil) -> Int? {
        let now = now ?? clock()
        return records.withLock { table in
            guard let until = table[client]?.blockedUntil, until > now else { return nil }
            let left = now.duration(to: until)
            return max(1, Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0))
        }
    }

    /// A wrong token from `client`; returns the seconds it must now wait, if any.
    @discardableResult
    package func failed(_ client: ClientAddress, now: ContinuousClock.Instant? = nil) -> Int? {
        let now = now ?? clock()
        return records.withLock { table in
            if table[client] == nil, table.count >= Self.maximumClients { Self.forgetQuietest(&table, now: now) }
            var record = table[client] ?? Record(lastSeen: now)
            if now - record.lastSeen > .seconds(Self.forgetAfterSeconds) { record = Record(lastSeen: now) }
            record.failures += 1
            record.lastSeen = now
            var wait: Int?
            if record.failures > Self.freeFailures {
                let seconds = min(Self.longestBlockSeconds, Double(1 << min(record.failures - Self.freeFailures, 20)))
                record.blockedUntil = now + .seconds(seconds)
                wait = Int(seconds)
            }
            table[client] = record
            return wait
        }
    }

    /// A right token from `client`: its failures are forgotten.
    package func succeeded(_ client: ClientAddress) {
        _ = records.withLock { $0.removeValue(forKey: client) }
    }

    private static func forgetQuietest(_ table: inout [ClientAddress: Record], now: ContinuousClock.Instant) {
        // First whatever is past its time; then, if still full, the quietest quarter.
        table = table.filter { _, record in
            now - record.lastSeen < .seconds(forgetAfterSeconds) || (record.blockedUntil.map { $0 > now } ?? false)
        }
        guard table.count >= maximumClients else { return }
        let quietest = table.sorted { $0.value.lastSeen < $1.value.lastSeen }.prefix(maximumClients / 4).map(\.key)
        for key in quietest { table.removeValue(forKey: key) }
    }
}
