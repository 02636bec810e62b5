package import Settings
import StorageUpload

extension RecorderConfiguration {
    /// The store this configuration sends posts to, as an outbox item names it.
    package func postDestination() throws(RecorderError) -> PostDestination {
        try makeBackend().destination
    }
}
