package import AudioCapture
package import MediaEncoder
package import StorageUpload
package import VideoCapture
package import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every failure the CLI and the service report: a message that says what happened, an exit
/// status, the typed error it came from (kept so code decides by what happened, not by the
/// status), and the settings that would help, which each edge spells its own way (`text(_:)`).
package struct RecorderError: Error, Sendable, CustomStringConvertible {
    /// The lower layer's own error, when there was one.
    package enum Cause: Sendable {
        case capture(CaptureError)
        case media(MediaError)
        case storage(StorageError)
        case audio(AudioError)
    }

    package var message: String
    package var exitStatus: SysExit
    package var cause: Cause?
    /// Settings that would help; the cause's own advice unless given.
    package var advice: [SettingAdvice]

    package init(_ message: String, exitStatus: SysExit, cause: Cause? = nil, advice: [SettingAdvice]? = nil) {
        self.message = message
        self.exitStatus = exitStatus
        self.cause = cause
        self.advice = advice ?? cause?.advice ?? []
    }

    /// The message and its advice, with the settings spelled as configuration keys (the kiosk's
    /// operator page and journal), or as the edge that tells it spells them (the CLI: as flags).
    package func text(spelledBy spell: (SettingAdvice) -> String = \.spelledAsKey) -> String {
        message + SettingAdvice.sentence(advice, spelledBy: spell)
    }

    /// The message with the advice spelled as configuration keys: what a log line shows.
    package var description: String { text() }

    /// The same failure told in other words (with what it means here before or after it): the
    /// cause and the advice stay.
    package func retold(_ message: String, exitStatus: SysExit? = nil) -> RecorderError {
        RecorderError(message, exitStatus: exitStatus ?? self.exitStatus, cause: cause, advice: advice)
    }

    package init(_ error: CaptureError) {
        let status: SysExit
        switch error.kind {
        case .noSuchDevice, .notACaptureDevice: status = .noInput
        case .permissionDenied: status = .noPermission
        case .busy: status = .tempFail
        case .disconnected, .stalled, .driverFailure: status = .unavailable
        case .unsupportedFormat: status = .usage
        case .badInput: status = .dataError
        }
        self.init(error.description, exitStatus: status, cause: .capture(error))
    }

    package init(_ error: MediaError) {
        let status: SysExit
        switch error.kind {
        case .diskFull: status = .ioError
        case .permissionDenied: status = .cantCreate
        case .missingCodec: status = .unavailable
        case .badInput: status = .dataError
        case .failed: status = .software
        }
        self.init(error.description, exitStatus: status, cause: .media(error))
    }

    package init(_ error: AudioError) {
        let status: SysExit
        switch error.kind {
        case .noSuchDevice: status = .noInput
        case .permissionDenied: status = .noPermission
        case .busy, .disconnected, .driverFailure: status = .unavailable
        case .unsupportedFormat: status = .usage
        }
        self.init(error.description, exitStatus: status, cause: .audio(error))
    }

    /// A store failure; `exitStatus` overrides the mapping by kind.
    package init(_ error: StorageError, exitStatus: SysExit? = nil) {
        self.init(error.message, exitStatus: exitStatus ?? Self.status(for: error), cause: .storage(error))
    }

    static func status(for error: StorageError) -> SysExit {
        switch error.kind {
        case .accessDenied: .noPermission
        case .missingContainer, .configuration: .config
        case .local(let code) where [EACCES, EPERM, EROFS, ENOENT, ENOTDIR].contains(code): .cantCreate
        case .local: .ioError
        case .transport, .http, .mismatch: error.isRetryable ? .tempFail : .unavailable
        }
    }

    /// Wraps any error, keeping the specific mapping for the typed ones.
    package static func wrap(_ error: any Error) -> RecorderError {
        switch error {
        case let e as RecorderError: e
        case let e as CaptureError: RecorderError(e)
        case let e as MediaError: RecorderError(e)
        case let e as StorageError: RecorderError(e)
        case let e as AudioError: RecorderError(e)
        default: RecorderError("\(error)", exitStatus: .software)
        }
    }

    /// A store failure told in other words.
    package init(_ message: String, storage error: StorageError, exitStatus: SysExit? = nil) {
        self.init(message, exitStatus: exitStatus ?? Self.status(for: error), cause: .storage(error))
    }

    /// A stop (Ctrl-C, SIGTERM, the kiosk's Stop) that came before the first frame.
    static func stoppedBeforeFirstFrame() -> RecorderError {
        RecorderError("stopped before the first frame: nothing was recorded, and the previous shot is still the current one.",
                      exitStatus: .interrupted)
    }

    static func alreadyRecording() -> RecorderError {
        RecorderError("a shot is already being recorded. Wait for it to finish or stop it first.", exitStatus: .tempFail)
    }
}

extension RecorderError.Cause {
    /// The lower layer's advice.
    var advice: [SettingAdvice] {
        switch self {
        case .capture(let error): error.advice
        case .media(let error): error.advice
        case .storage(let error): error.advice
        case .audio(let error): error.advice
        }
    }
}
