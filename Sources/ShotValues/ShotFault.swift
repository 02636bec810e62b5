package import MediaValues
package import StoreValues

/// A failure a shot records as data (in `shot.json` and a post's metadata) rather than fails by:
/// a remux, a levelling or an effect that could not be done, a recovery that could not finish.
/// The lower module's error as it is, so each edge words it as it words that error anywhere
/// (`CLIWords`, `OperatorWords`); never a sentence.
package enum ShotFault: Sendable, Equatable {
    /// FFmpeg's or the media code's failure.
    case media(error: MediaError)
    /// A file of the shot could not be written, synced or renamed (the workspace's store error).
    case storage(error: StorageError)
    /// The microphone could not be opened.
    case microphone(error: AudioError)
    /// The system call `call` failed with `errno`.
    case system(call: String, errno: Int32)
    /// A failure of another kind, by its kind and its case (`ShotFailure.notCurrentShot`): none is
    /// expected where shots record faults, so its name is enough to find it.
    case other(kind: String, failure: String)
}
