package import AudioCapture
package import MediaEncoder
package import StorageUpload
package import VideoCapture
package import SystemSupport

/// Every failure the CLI and the service report: a lower layer's typed error as it is, or the
/// core's own failure (what happened, in words that name the fix), or a lower error told in the
/// core's words, keeping it as the cause. Code decides by `kind` (what happened) or by `cause`
/// (the typed error); each edge turns the kind into its own status (the CLI a sysexits status,
/// the kiosk an HTTP status) and spells the advice its own way (`text(spelledBy:)`).
package enum RecorderError: Error, Sendable, CustomStringConvertible {
    case capture(CaptureError)
    case media(MediaError)
    case audio(AudioError)
    case storage(StorageError)
    /// The core's own failure, with no lower error behind it.
    case failed(Failure)
    /// A lower error told in the core's words: `underlying` is one of the lower cases.
    indirect case retold(Failure, underlying: RecorderError)

    /// What a failure says: what happened, its message, and the settings that would help.
    package struct Failure: Sendable {
        package var kind: Kind
        package var message: String
        package var advice: [SettingAdvice]

        package init(_ kind: Kind, _ message: String, advice: [SettingAdvice] = []) {
            self.kind = kind
            self.message = message
            self.advice = advice
        }
    }

    /// The core's own failure.
    package init(_ message: String, kind: Kind, advice: [SettingAdvice] = []) {
        self = .failed(Failure(kind, message, advice: advice))
    }

    package init(_ error: CaptureError) { self = .capture(error) }
    package init(_ error: MediaError) { self = .media(error) }
    package init(_ error: AudioError) { self = .audio(error) }

    /// A store failure; `kind` overrides what its own kind means.
    package init(_ error: StorageError, kind: Kind? = nil) {
        if let kind {
            self = .retold(Failure(kind, error.message, advice: error.advice), underlying: .storage(error))
        } else {
            self = .storage(error)
        }
    }

    /// A store failure told in other words.
    package init(_ message: String, storage error: StorageError, kind: Kind? = nil) {
        self = .retold(Failure(kind ?? Kind(error), message, advice: error.advice), underlying: .storage(error))
    }

    /// What happened, for code that decides and for the edges' statuses.
    package var kind: Kind {
        switch self {
        case .capture(let error): Kind(error)
        case .media(let error): Kind(error)
        case .audio(let error): Kind(error)
        case .storage(let error): Kind(error)
        case .failed(let failure), .retold(let failure, _): failure.kind
        }
    }

    /// What happened, in words that name the fix, without the advice.
    package var message: String {
        switch self {
        case .capture(let error): error.description
        case .media(let error): error.description
        case .audio(let error): error.description
        case .storage(let error): error.message
        case .failed(let failure), .retold(let failure, _): failure.message
        }
    }

    /// Settings that would help: the lower error's own, unless told otherwise.
    package var advice: [SettingAdvice] {
        switch self {
        case .capture(let error): error.advice
        case .media(let error): error.advice
        case .audio(let error): error.advice
        case .storage(let error): error.advice
        case .failed(let failure), .retold(let failure, _): failure.advice
        }
    }

    /// The lower layer's typed error this came from (`.capture`, `.media`, `.audio` or
    /// `.storage`), nil for the core's own failure.
    package var cause: RecorderError? {
        switch self {
        case .capture, .media, .audio, .storage: self
        case .failed: nil
        case .retold(_, let underlying): underlying.cause
        }
    }

    /// The message and its advice, with the settings spelled as configuration keys (the kiosk's
    /// operator page and journal), or as the edge that tells it spells them (the CLI: as flags).
    package func text(spelledBy spell: (SettingAdvice) -> String = \.spelledAsKey) -> String {
        message + SettingAdvice.sentence(advice, spelledBy: spell)
    }

    /// The message with the advice spelled as configuration keys: what a log line shows.
    package var description: String { text() }

    /// The same failure told in other words (with what it means here before or after it): the
    /// cause and the advice stay, and the kind unless given.
    package func retold(_ message: String, kind: Kind? = nil) -> RecorderError {
        let failure = Failure(kind ?? self.kind, message, advice: advice)
        guard let cause else { return .failed(failure) }
        return .retold(failure, underlying: cause)
    }

    /// Wraps any error, keeping the typed ones as they are.
    package static func wrap(_ error: any Error) -> RecorderError {
        switch error {
        case let e as RecorderError: e
        case let e as CaptureError: .capture(e)
        case let e as MediaError: .media(e)
        case let e as StorageError: .storage(e)
        case let e as AudioError: .audio(e)
        default: RecorderError("\(error)", kind: .internalFailure)
        }
    }

    /// A stop (Ctrl-C, SIGTERM, the kiosk's Stop) that came before the first frame.
    package static func stoppedBeforeFirstFrame() -> RecorderError {
        RecorderError("stopped before the first frame: nothing was recorded, and the previous shot is still the current one.",
                      kind: .interrupted)
    }

    package static func alreadyRecording() -> RecorderError {
        RecorderError("a shot is already being recorded. Wait for it to finish or stop it first.", kind: .busy)
    }
}
