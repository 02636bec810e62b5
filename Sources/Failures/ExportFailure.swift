package import StoreValues

/// Why `recorder export` made nothing, with its data. Nothing is overwritten, and a failed export
/// leaves nothing behind.
package enum ExportFailure: RecorderFailure {
    /// The archive named exists already.
    case archiveExists(path: String)
    /// The directory named is a file.
    case targetIsFile(path: String)
    /// The directory named exists and is not empty.
    case directoryNotEmpty(path: String)
    /// The export cannot be made beside its target (`partial`).
    case cannotMake(partial: String, StorageError)
    /// Post `id` cannot be written into the export.
    case cannotWrite(id: String, partial: String, StorageError)
    /// The export cannot be put in place at `target`.
    case cannotFinish(target: String, StorageError)
    /// Post `id` cannot be read from the store.
    case cannotRead(id: String, StorageError)
    /// Post `id` was recorded under a guest's yes, and the text they agreed to (`key`, with
    /// `sha256`) is missing from the store or changed: it is not exported without it.
    case consentTextMissing(id: String, key: String, sha256: String)
    /// No post made since `since` is in the store at `store` (`skipped`: the posts that could not
    /// be read): nothing was exported.
    case nothingToExport(since: String, store: String, skipped: [String: RecorderError])

    package var kind: RecorderError.Kind {
        switch self {
        case .archiveExists, .targetIsFile, .directoryNotEmpty, .cannotMake: .cannotWrite
        case .cannotWrite, .cannotFinish: .ioFailure
        case .cannotRead(_, let error): RecorderError.Kind(error)
        case .consentTextMissing: .badData
        case .nothingToExport: .notFound
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .cannotMake(_, let error), .cannotWrite(_, _, let error), .cannotFinish(_, let error), .cannotRead(_, let error): .storage(error)
        default: nil
        }
    }
}


extension ExportFailure {
    package var wrapped: RecorderError { .export(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .export(let failure) = error else { return nil }
        self = failure
    }
}
