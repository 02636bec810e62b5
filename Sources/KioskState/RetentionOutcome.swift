import Settings
import Shooting
import Publishing
package import Library
package import Failures

/// What the kiosk's last purge of expired posts did, for the operator page.
package struct RetentionOutcome: Encodable, Sendable, Equatable {
    /// When it ran (RFC 3339).
    package var at: String
    /// own or store (`retention.scope`), and this kiosk's id (`kiosk.id`).
    package var scope: String
    package var kiosk: String
    package var deleted: Int
    /// Expired posts left alone: other kiosks' (scope own) and those without a kiosk id (only
    /// `retention.scope = store` deletes those).
    package var otherKiosks: Int
    package var withoutKiosk: Int
    /// Why nothing was deleted, when the clock was in doubt: its kind and data, and in words.
    package var refused: ClockDoubt?
    package var refusedBecause: String?

    package init(at: String, scope: String, kiosk: String, deleted: Int, otherKiosks: Int, withoutKiosk: Int,
                refused: ClockDoubt? = nil, refusedBecause: String? = nil) {
        self.at = at
        self.scope = scope
        self.kiosk = kiosk
        self.deleted = deleted
        self.otherKiosks = otherKiosks
        self.withoutKiosk = withoutKiosk
        self.refused = refused
        self.refusedBecause = refusedBecause
    }
}
