package import MediaValues
package import StoreValues

/// Why the store's feed, a post in it, its poster or its moderation failed, with its data; the
/// edges word it.
package enum FeedFailure: RecorderFailure {
    /// A page number under 1.
    case pageOutOfRange(Int)
    /// A page size outside 1...`maximum`.
    case pageSizeOutOfRange(Int, maximum: Int)
    /// Not 10 letters and digits.
    case notAPostID(String)
    /// The feed cannot be listed.
    case cannotList(StorageError)
    /// Post `id`'s metadata cannot be read.
    case cannotRead(id: String, StorageError)
    /// There is no post `id` in the store (`store`: where that is).
    case notInStore(id: String, store: String)
    /// Post `id`'s metadata (at `key`) is damaged, so its video cannot be checked.
    case metadataDamaged(id: String, key: String)
    case cannotHide(id: String, StorageError)
    case cannotShow(id: String, StorageError)
    /// Deleting post `id` failed (`partly`: some of its objects were deleted already).
    case cannotDelete(id: String, partly: Bool, StorageError)
    /// Post `id` is not in the store to delete: deleted already, or never posted there.
    case nothingToDelete(id: String, store: String)
    // Posters
    case cannotStorePoster(id: String, StorageError)
    case cannotReadPoster(id: String, StorageError)
    /// No temporary file for post `id`'s video can be made in `directory` (errno).
    case noTemporaryFile(id: String, directory: String, errno: Int32)
    case cannotDownloadVideo(id: String, StorageError)
    /// Post `id`'s video is not in the store.
    case videoNotInStore(id: String)
    /// Post `id`'s video does not match its metadata's SHA-256.
    case videoMismatch(id: String)
    /// No picture can be made of post `id`'s video.
    case noPicture(id: String, MediaError)
    /// Post `id`'s entry in the feed cannot be read (`problem`: the listing's words for it; nil
    /// when its creation time cannot be read).
    case unreadableEntry(id: String, problem: FeedEntryProblem?)

    package var kind: RecorderError.Kind {
        switch self {
        case .pageOutOfRange, .pageSizeOutOfRange, .notAPostID: .invalidRequest
        case .notInStore, .nothingToDelete, .videoNotInStore: .notFound
        case .metadataDamaged, .videoMismatch, .noPicture, .unreadableEntry: .badData
        case .noTemporaryFile: .cannotWrite
        case .cannotList(let error), .cannotRead(_, let error), .cannotHide(_, let error), .cannotShow(_, let error),
             .cannotDelete(_, _, let error), .cannotStorePoster(_, let error), .cannotReadPoster(_, let error),
             .cannotDownloadVideo(_, let error):
            RecorderError.Kind(error)
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .cannotList(let error), .cannotRead(_, let error), .cannotHide(_, let error), .cannotShow(_, let error),
             .cannotDelete(_, _, let error), .cannotStorePoster(_, let error), .cannotReadPoster(_, let error),
             .cannotDownloadVideo(_, let error):
            .storage(error)
        case .noPicture(_, let error): .media(error)
        default: nil
        }
    }
}


extension FeedFailure {
    package var wrapped: RecorderError { .feed(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .feed(let failure) = error else { return nil }
        self = failure
    }
}
