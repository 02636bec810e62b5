package import Settings
import SystemSupport
package import Failures

/// What a guest at the booth is told when something fails: one plain sentence, decided by what
/// happened (the typed cause, else the kind), never the operator's detail. The detail (paths,
/// errno, settings to change) goes to the journal, the API's `error` and the operator page.
///
/// The one place failures are worded for guests; the words are in `GuestStrings`.
package enum GuestWording {
    /// The string for a failed request or shot.
    package static func key(for error: RecorderError) -> GuestStrings.Key {
        switch error.failedPart {
        case .camera(let busy)?: return busy ? .busy : .cameraUnavailable
        case .encoder(diskFull: true)?: return .storageFull
        case .microphone(let busy)?: return busy ? .busy : .notSaved
        case .store?, .encoder?, nil: break
        }
        return key(for: error.kind)
    }

    /// The string for a failure known only by its kind.
    package static func key(for kind: RecorderError.Kind) -> GuestStrings.Key {
        switch kind {
        case .ioFailure: return .storageFull
        case .busy: return .busy
        case .interrupted: return .tooShort
        case .invalidRequest, .badData: return .tryAgain
        case .notFound, .unavailable, .internalFailure, .cannotWrite, .denied, .misconfigured: return .notSaved
        }
    }

    /// The sentence for a failed request or shot, in English (the API's `guestMessage`).
    package static func sentence(for error: RecorderError) -> String {
        GuestStrings.text(key(for: error))
    }

    package static var cameraUnavailable: String { GuestStrings.text(.cameraUnavailable) }
    package static var notSaved: String { GuestStrings.text(.notSaved) }
    package static var storageFull: String { GuestStrings.text(.storageFull) }
    package static var busy: String { GuestStrings.text(.busy) }
    package static var tooShort: String { GuestStrings.text(.tooShort) }
    package static var tryAgain: String { GuestStrings.text(.tryAgain) }
}
