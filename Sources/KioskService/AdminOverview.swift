import Settings
import Library
package import KioskState

/// `GET /api/admin/overview`: what the operator page shows beyond the status. The operator's words
/// in full (paths, errno, the settings to change), never a secret.
package struct AdminOverview: Encodable, Sendable {
    /// One post waiting in the outbox.
    package struct QueuedPost: Encodable, Sendable {
        package var id: String
        package var caption: String
        package var bytes: Int64
        package var queuedAt: String
        package var attempts: Int
        package var lastError: String?
        /// The store it is queued for, in words ("s3://bucket/prefix at https://host").
        package var destination: String
        /// Where its video will be once uploaded.
        package var videoURL: String
        package var uploading: Bool
    }

    /// Free space where the kiosk writes.
    package struct Space: Encodable, Sendable {
        /// workspace, outbox, cache, store.
        package var what: String
        package var path: String
        package var freeBytes: Int64?
    }

    /// One configuration key in effect; secrets masked.
    package struct Setting: Encodable, Sendable {
        package var key: String
        package var value: String?
        /// flag, an environment variable, file:line, or default.
        package var origin: String
    }

    package var status: KioskStatus
    /// Where posts go now.
    package var store: String
    package var outbox: [QueuedPost]
    /// Guests' mail, when `mail.*` is set: waiting, refused (addresses masked), and how many were sent.
    package var mail: Mail?
    /// Outbox entries that cannot be read (damaged), by directory.
    package var unreadable: [String]
    /// The last warnings and errors, newest first.
    package var problems: [ProblemLog.Problem]
    package var disk: [Space]
    package var configuration: [Setting]
    /// Posts their guests deleted with their share link since the kiosk started: a count, never which.
    package var guestDeletions: Int
    /// Whether posts expire here (`retention.days` is set), and the last purge of them; nil before
    /// the first.
    package var retentionOn: Bool
    package var retention: RetentionOutcome?
    /// Where guests' share links point (a made-up post's link) and whether a phone can open them;
    /// nil when the store gives no link.
    package var shareLinks: ShareReach?

    /// A share link as this kiosk makes them, and whether a phone opens it (not a loopback address).
    package struct ShareReach: Encodable, Sendable {
        package var example: String
        package var opensOnPhones: Bool
    }
}
