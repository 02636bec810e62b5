import AudioCapture
import MediaEncoder
import StorageUpload
import VideoCapture
#if canImport(Glibc)
import Glibc
#endif

/// Every failure the CLI and the service report: a message that names the fix, an exit status,
/// and the typed error it came from, kept so code decides by what happened, not by the status.
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

    package init(_ message: String, exitStatus: SysExit, cause: Cause? = nil) {
        self.message = message
        self.exitStatus = exitStatus
        self.cause = cause
    }

    package var description: String { message }

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

    /// A stop (Ctrl-C, SIGTERM, the kiosk's Stop) that came before the first frame.
    static func stoppedBeforeFirstFrame() -> RecorderError {
        RecorderError("stopped before the first frame: nothing was recorded, and the previous shot is still the current one.",
                      exitStatus: .interrupted)
    }

    static func alreadyRecording() -> RecorderError {
        RecorderError("a shot is already being recorded. Wait for it to finish or stop it (Ctrl-C) first.", exitStatus: .tempFail)
    }
}
