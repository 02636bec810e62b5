import AudioCapture
import MediaEncoder
import RecorderCore
import StorageUpload
import VideoCapture
import SystemSupport

/// What a guest at the booth is told when something fails: one plain sentence, decided by what
/// happened (the typed cause, else the status), never the operator's detail. The detail (paths,
/// errno, settings to change) goes to the journal, the API's `error` and the operator.
///
/// The one place failures are worded for guests.
package enum GuestWording {
    /// The sentence for a failed request or shot.
    package static func sentence(for error: RecorderError) -> String {
        switch error.cause {
        case .capture(let capture):
            switch capture.kind {
            case .busy: return busy
            case .noSuchDevice, .notACaptureDevice, .disconnected, .stalled, .permissionDenied, .driverFailure,
                 .unsupportedFormat, .badInput:
                return cameraUnavailable
            }
        case .media(let media) where media.kind == .diskFull: return storageFull
        case .audio(let audio):
            if case .busy = audio.kind { return busy }
            return notSaved
        case .storage, .media, nil: break
        }
        switch error.exitStatus {
        case .ioError: return storageFull
        case .tempFail: return busy
        case .interrupted: return tooShort
        case .usage, .dataError: return tryAgain
        default: return notSaved
        }
    }

    /// While the camera cannot be used (unplugged, or refused by its driver).
    package static let cameraUnavailable = "The camera is not available right now. Please ask the host for help."
    /// A failure the guest cannot fix.
    package static let notSaved = "We could not save your video. Please ask the host for help."
    /// The disk is full: a retry will not help until the host frees space.
    package static let storageFull = "The booth is out of space, so your video could not be saved. Please ask the host for help."
    /// Another shot (or another program) has the camera: a moment later works.
    package static let busy = "The booth is busy. Please try again in a moment."
    /// Stopped before the shortest clip the booth keeps.
    package static let tooShort = "That recording was too short to keep. Press the button to try again."
    /// A request the page should not have sent: trying again from the page's own button works.
    package static let tryAgain = "Something went wrong. Please try again."
}
