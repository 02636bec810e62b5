package import Settings
package import Publishing
import StorageUpload
package import StoreValues
package import Failures
package import PreflightValues

/// The store the configuration names, made once for the checks that use it (the disk's room, the
/// round trip, the outbox, the share links), or why it cannot be made. The edges hand it round
/// without the storage module.
package struct PreflightStore: Sendable {
    private let made: Result<any StorageBackend, RecorderError>

    package init(_ configuration: RecorderConfiguration) {
        do throws(RecorderError) { made = .success(try configuration.makeBackend()) } catch { made = .failure(error) }
    }

    /// The local store's directory, when the store is a local one (its disk's room counts).
    package var localPath: String? {
        guard case .success(let store) = made, store.destination.backend == "local" else { return nil }
        return store.destination.path
    }

    /// Whether the store makes presigned links (an S3 store), which phones open from the store.
    package var presigns: Bool {
        guard case .success(let store) = made else { return false }
        return ShareLinks.presigns(store)
    }

    /// The round trip (`StoreCheck`), or why there is no store to try. Blocking.
    package func roundTrip() -> Result<PreflightFinding, RecorderError> {
        made.map { StoreCheck.roundTrip($0) }
    }

    /// The outbox at `root`, its posts for another store counted apart (`OutboxCheck`).
    package func outbox(root: String) -> PreflightFinding {
        OutboxCheck.look(root: root, destination: try? made.get().destination)
    }
}
