package import FoundationEssentials
package import Failures
package import SystemSupport

/// How long posts live in the store (`retention.days`): a post created more than that long ago is
/// expired, and the kiosk's timer or `recorder feed --purge-expired --yes` deletes it.
package struct Retention: Sendable, Equatable {
    /// The post's life in seconds.
    package var seconds: Double

    package init(days: Double) {
        seconds = days * 86_400
    }

    /// `retention.days` (or another key of days: `retention.local_days`); nil when it is 0 or not
    /// set (kept until deleted).
    package init?(_ configuration: RecorderConfiguration, key: String = "retention.days") throws(RecorderError) {
        let days = try configuration.number(key)
        guard days > 0 else { return nil }
        self.init(days: days)
    }

    /// Posts created before this moment are expired at `now`.
    package func cutoff(at now: Date) -> Date {
        now.addingTimeInterval(-seconds)
    }

    /// When a post created at `createdAt` (RFC 3339) expires; nil when the time cannot be read.
    package func expiresAt(createdAt: String) -> Date? {
        RFC3339.date(createdAt).map { $0.addingTimeInterval(seconds) }
    }
}
