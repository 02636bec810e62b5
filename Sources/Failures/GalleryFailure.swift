package import StoreValues

/// Why a host's gallery could not be made, found, read or sent, with its data.
package enum GalleryFailure: RecorderFailure {
    /// The event's name is empty, longer than `limit` characters, or holds a control character.
    case badEventName(String, limit: Int)
    /// The window's start is not before its end.
    case emptyWindow(since: String, until: String)
    /// An expiry outside 1...`limit` days.
    case expiresOutOfRange(Int, limit: Int)
    /// A booth named that is not a `kiosk.id`'s form.
    case badKioskID(String)
    /// No gallery of the store (`store`) has this token: never made, revoked, or a mistyped link.
    case noSuchGallery(token: String, store: String)
    /// The store's galleries (or a gallery's posts) cannot be read.
    case cannotRead(StorageError)
    /// The gallery cannot be written to the store, or removed from it.
    case cannotWrite(StorageError)
    /// The highlight reel to show first cannot be read from the file named (errno).
    case reelUnreadable(path: String, errno: Int32)
    /// Post `id`'s video in the store is not what its metadata says (size, SHA-256 or CRC-32): it is
    /// left out of what is sent rather than sent wrong.
    case postChanged(id: String)
    /// The printable card cannot be written at `path` (errno): it exists, or its folder is not writable.
    case cannotWriteCard(path: String, errno: Int32)
    /// A gallery's link is made on the share links' public name, and none is set (share.base_url).
    case noShareBase
    /// The link does not fit in a QR code.
    case linkTooLong(String)

    package var kind: RecorderError.Kind {
        switch self {
        case .badEventName, .emptyWindow, .expiresOutOfRange, .badKioskID, .linkTooLong: .invalidRequest
        case .noShareBase: .misconfigured
        case .noSuchGallery: .notFound
        case .cannotRead(let error), .cannotWrite(let error): RecorderError.Kind(error)
        case .reelUnreadable: .notFound
        case .postChanged: .badData
        case .cannotWriteCard: .cannotWrite
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .cannotRead(let error), .cannotWrite(let error): .storage(error)
        default: nil
        }
    }
}

extension GalleryFailure {
    package var wrapped: RecorderError { .gallery(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .gallery(let failure) = error else { return nil }
        self = failure
    }
}
