package import MediaValues
package import StoreValues

/// Why no highlight reel was made, with its data. An existing file is never replaced.
package enum ReelFailure: RecorderFailure {
    case targetExists(path: String)
    /// A loudness target outside -40...-5 LUFS.
    case loudnessOutOfRange(Double)
    /// A title card outside 0.5...10 seconds.
    case cardSecondsOutOfRange(Double)
    /// A fade outside 0...2 seconds.
    case fadeOutOfRange(Double)
    /// A post's video cannot be read (measured for its loudness).
    case unreadableVideo(MediaError)
    /// No post made since `since` (answering `prompt`, when one was asked for) in the store at
    /// `store` can go into the reel; `skipped`: the posts that could not be read.
    case nothingToShow(since: String, prompt: String?, store: String, skipped: [String: RecorderError])
    /// The reel's scratch folder cannot be made beside it (errno).
    case cannotMakeScratch(path: String, errno: Int32)
    /// The reel cannot be put at `target`.
    case cannotPlace(target: String, StorageError)
    /// Post `id`, checked before, cannot be added after all (fetched again, or its video read):
    /// the reel was not made; hiding the post leaves it out.
    indirect case cannotAdd(id: String, RecorderError)
    /// The folder for the kiosk's reels cannot be made (the file system's reason).
    case cannotMakeDirectory(path: String, detail: String)

    package var kind: RecorderError.Kind {
        switch self {
        case .targetExists, .cannotMakeScratch, .cannotPlace, .cannotMakeDirectory: .cannotWrite
        case .loudnessOutOfRange, .cardSecondsOutOfRange, .fadeOutOfRange: .invalidRequest
        case .unreadableVideo, .cannotAdd: .badData
        case .nothingToShow: .notFound
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .unreadableVideo(let error): .media(error)
        case .cannotPlace(_, let error): .storage(error)
        case .cannotAdd(_, let error): error
        default: nil
        }
    }
}


extension ReelFailure {
    package var wrapped: RecorderError { .reel(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .reel(let failure) = error else { return nil }
        self = failure
    }
}
