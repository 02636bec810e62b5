package import FoundationEssentials
import Glibc
package import Publishing
import Settings
package import StorageUpload
package import SystemSupport
package import StoreValues
package import PreflightValues

/// What waits in the outbox: how many posts, since when, and why they are not sent.
package enum OutboxCheck {
    /// Blocking (the outbox's files). `destination`: this configuration's store, so posts queued
    /// for another are counted apart.
    package static func look(root: String, destination: StoreDestination?, now: Date = Date()) -> PreflightFinding {
        if let code = unwritable(root) { return .outboxUnwritable(path: root, errno: code) }
        let outbox = Outbox(root: root)
        let unreadable = outbox.unreadableItems()
        let items = outbox.items()
        guard let oldest = items.first else {
            return unreadable.isEmpty ? .outboxEmpty(path: root) : .outboxUnreadable(path: root, entries: unreadable)
        }
        let since = RFC3339.date(oldest.state.queuedAt).map { max(0, Int(now.timeIntervalSince($0))) } ?? 0
        let elsewhere = destination.map { here in items.count { !$0.state.isFor(here) } } ?? 0
        let last = items.last { $0.state.lastFailure != nil || $0.state.lastError != nil }?.state
        return .outboxQueued(path: root, depth: items.count, oldestQueuedAt: oldest.state.queuedAt, oldestAgeSeconds: since,
                             lastFailure: last?.lastFailure, lastError: last?.lastError, elsewhere: elsewhere)
    }

    /// The errno that keeps this user from writing the outbox (the directory, or the nearest
    /// directory above it that exists, where it would be made), or nil.
    static func unwritable(_ path: String) -> Int32? {
        var probe = path
        while !Posix.allows(probe, F_OK) {
            guard let slash = probe.lastIndex(of: "/"), slash != probe.startIndex else { probe = "/"; break }
            probe = String(probe[..<slash])
        }
        do throws(Descriptors.Errno) { try Posix.access(probe, W_OK | X_OK) } catch { return error.code }
        return nil
    }
}
