
/// The command line's own failures, with their data; `CLIWords` words them.
package enum CLIFailure: RecorderFailure {
    /// `recorder fetch -o -`: the cached video cannot be opened.
    case cachedVideoUnreadable(path: String, errno: Int32)
    /// `recorder fetch -o -`: standard output took no more.
    case standardOutputClosed(errno: Int32)
    /// Posts left out of a reel, by id, and why.
    case leftOutOfReel([String: RecorderError])
    /// Posts left out of an export, by id, and why.
    case leftOutOfExport([String: RecorderError])
    /// `recorder devices --listen`: no microphone (`problem`: what the system said, if anything).
    case noMicrophone(problem: String?)
    /// `recorder devices --listen`: none of the microphones (name: why) could be listened to.
    case noMicrophoneListened([String: String])
    /// `recorder outbox flush`: the flush failed with `count` posts still queued.
    indirect case stillQueued(RecorderError, count: Int)
    /// `recorder feed --purge-expired` with no retention setting.
    case purgeNeedsRetention
    /// `--purge-expired --yes` under a clock in doubt: nothing deleted.
    case clockInDoubt(ClockDoubt)
    /// `--purge-expired --yes`: `count` items not deleted, the first (`id`) for `why`.
    indirect case purgeIncomplete(count: Int, id: String, RecorderError)
    /// `--caption-file` cannot be opened.
    case captionFileUnreadable(path: String, errno: Int32)
    /// `--caption -` and standard input cannot be read.
    case captionInputUnreadable(errno: Int32)
    /// The caption (from `source`) is longer than `limit` characters.
    case captionTooLong(source: String, limit: Int)
    /// Reading the caption from `source` failed.
    case captionReadFailed(source: String, errno: Int32)
    /// `recorder post`: the upload failed; post `id` is queued in `directory` (`mailWaits`: with
    /// a guest's mail, which goes once the post is sent).
    indirect case postQueued(RecorderError, id: String, directory: String, mailWaits: Bool = false)
    /// `recorder post`: the upload stopped before post `id`.
    case uploadStopped(id: String)
    /// `recorder shoot`: the shot was kept, but the camera was lost.
    indirect case shotKept(RecorderError)
    /// `recorder feed`: the store at `store` holds no post at all.
    case noPosts(store: String)
    /// `recorder fleet --prometheus --listen`: the exporter cannot listen on `address` (`reason`:
    /// the system's words), `inUse` when another program has the port.
    case exporterCannotListen(address: String, reason: String, inUse: Bool)

    package var kind: RecorderError.Kind {
        switch self {
        case .cachedVideoUnreadable, .standardOutputClosed: .ioFailure
        case .leftOutOfReel, .leftOutOfExport: .badData
        case .noMicrophone, .noMicrophoneListened: .unavailable
        case .stillQueued(let error, _), .postQueued(let error, _, _, _), .shotKept(let error): error.kind
        case .purgeNeedsRetention: .misconfigured
        case .clockInDoubt, .purgeIncomplete, .uploadStopped: .busy
        case .captionFileUnreadable, .captionInputUnreadable, .captionReadFailed: .notFound
        case .captionTooLong: .badData
        case .noPosts: .notFound
        case .exporterCannotListen: .unavailable
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .stillQueued(let error, _), .postQueued(let error, _, _, _), .shotKept(let error), .purgeIncomplete(_, _, let error): error
        default: nil
        }
    }
}

extension CLIFailure {
    package var wrapped: RecorderError { .cli(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .cli(let failure) = error else { return nil }
        self = failure
    }
}
