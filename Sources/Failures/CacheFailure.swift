package import StoreValues

/// Why a posted video could not be fetched into the cache or read from it, with its data.
package enum CacheFailure: RecorderFailure {
    /// The cache's directory cannot be made or written.
    case unusable(directory: String, StorageError)
    /// A cached video cannot be copied where it was asked for.
    case cannotCopy(to: String, StorageError)
    /// Post `id`'s video cannot be fetched from the store.
    case cannotFetch(id: String, StorageError)
    /// Post `id`'s video (`key`) is not in the store (`store`), though its metadata is: the
    /// upload may still be under way.
    case videoNotInStore(id: String, key: String, store: String)
    /// The store's copy of post `id`'s video is not what its metadata says.
    case mismatch(id: String, size: Int64, sha256: String, expectedSize: Int64, expectedSHA256: String)

    package var kind: RecorderError.Kind {
        switch self {
        case .unusable, .cannotCopy: .cannotWrite
        case .cannotFetch(_, let error): RecorderError.Kind(error)
        case .videoNotInStore: .notFound
        case .mismatch: .badData
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .unusable(_, let error), .cannotCopy(_, let error), .cannotFetch(_, let error): .storage(error)
        case .videoNotInStore, .mismatch: nil
        }
    }
}


extension CacheFailure {
    package var wrapped: RecorderError { .cache(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .cache(let failure) = error else { return nil }
        self = failure
    }
}
