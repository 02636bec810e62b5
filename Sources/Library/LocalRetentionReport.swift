package import Failures

/// What a purge of this machine's own copies (`LocalRetention`, Posting) deleted (or, as a dry
/// run, would delete).
package struct LocalRetentionReport: Sendable, Encodable, Equatable {
    /// Copies older than this (RFC 3339) are expired.
    package var cutoff: String
    package var dryRun: Bool
    /// Shots (ids) in the workspace: the current one, kept ones.
    package var shots: [String] = []
    /// Posts whose sent record the outbox held.
    package var sentRecords: [String] = []
    /// Guests' sent mails whose record the outbox held (their ids).
    package var mailRecords: [String] = []
    /// Cached videos (file names).
    package var cachedVideos: [String] = []
    /// What could not be deleted now, and why (tried again by the next purge).
    package var failed: [String: RecorderError] = [:]

    package init(cutoff: String, dryRun: Bool) {
        self.cutoff = cutoff
        self.dryRun = dryRun
    }

    package var count: Int { shots.count + sentRecords.count + mailRecords.count + cachedVideos.count }
}
