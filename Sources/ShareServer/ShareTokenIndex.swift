import Synchronization

/// Share tokens to post ids, so a share link opens with one metadata read and a wrong token costs
/// the store nothing. It learns a post's token when this kiosk queues the post, from one walk of
/// the feed at start (only as far back as a link can still open: `share.expires_hours`), and from
/// the newest posts (one listing) at most every `refreshSeconds` when a token is not found: posts
/// other kiosks sharing the store add appear there. A miss never walks the feed.
package final class ShareTokenIndex: Sendable {
    static let refreshSeconds = 30.0

    private struct State {
        var ids: [String: String] = [:]
        /// Posts whose metadata was read (with a token or not), so a refresh reads only new ones.
        var known: Set<String> = []
        var refreshedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    package init() {}

    package func id(forToken token: String) -> String? {
        state.withLock { $0.ids[token] }
    }

    package func learn(token: String?, id: String) {
        state.withLock { state in
            state.known.insert(id)
            if let token { state.ids[token] = id }
        }
    }

    /// A post the index knows a token of (any): what a token it does not know costs the store as
    /// much as one it does (`KioskLibrary.sharedPost`); nil while it knows none.
    package var standIn: String? {
        state.withLock { $0.ids.values.min() }
    }

    package func isKnown(_ id: String) -> Bool {
        state.withLock { $0.known.contains(id) }
    }

    package func forget(id: String) {
        state.withLock { state in
            state.known.remove(id)
            state.ids = state.ids.filter { $0.value != id }
        }
    }

    /// Whether the newest posts may be read again now (and, if so, marks it done).
    package func refreshDue(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            if let last = state.refreshedAt, now - last < .seconds(Self.refreshSeconds) { return false }
            state.refreshedAt = now
            return true
        }
    }

    var count: Int { state.withLock { $0.ids.count } }
}
