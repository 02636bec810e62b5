package import Settings
import Publishing
package import Failures

/// Whose expired posts a purge deletes (`retention.scope`).
package enum RetentionScope: Sendable, Equatable {
    /// Only posts whose index key carries this kiosk's id (`kiosk.id`): kiosks sharing a store
    /// never delete each other's posts, and posts from before kiosks had ids are left alone.
    case own(String)
    /// Every post in the store, those without a kiosk id included (one kiosk, or the one that
    /// looks after a shared store).
    case store

    /// `retention.scope`, with this machine's `kiosk.id`.
    package init(_ configuration: RecorderConfiguration) throws(RecorderError) {
        self = configuration.text("retention.scope") == "store" ? .store : .own(try KioskID.configured(configuration))
    }

    /// Whether a post from kiosk `kiosk` (nil: from before kiosks had ids) is this scope's to delete.
    package func covers(_ kiosk: String?) -> Bool {
        switch self {
        case .store: true
        case .own(let id): kiosk == id
        }
    }
}
