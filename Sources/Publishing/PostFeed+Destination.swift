import StorageUpload
import StoreValues

/// Where the feed's store is, for the edges that show it (the kiosk's operator page), so they need
/// not reach into the storage module for it.
extension PostFeed {
    /// The store in words: its directory, or `s3://bucket/prefix at endpoint`.
    package var storeLocation: String { store.location }

    /// Where a queued post goes, in words: `destination` (the store it was queued for), else this
    /// feed's store.
    package func describe(_ destination: PostDestination?) -> String {
        (destination ?? store.destination).description
    }

    /// The local store's directory; nil for a store elsewhere (S3).
    package var localStoreDirectory: String? {
        store.destination.backend == "local" ? store.destination.path : nil
    }

    /// The address a viewer would use for `key` (a post's video, once uploaded).
    package func address(forKey key: String) -> String { store.url(forKey: key) }
}
