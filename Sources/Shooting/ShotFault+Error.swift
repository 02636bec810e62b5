package import Failures
package import ShotValues
import SystemSupport

extension ShotFault {
    /// `error` as a shot records it: a media, store or microphone error as it is; any other by
    /// its kind and case.
    package init(_ error: RecorderError) {
        switch error {
        case .media(let media): self = .media(error: media)
        case .storage(let storage): self = .storage(error: storage)
        case .audio(let audio): self = .microphone(error: audio)
        case .capture, .configuration, .text, .internalFailure, .shot, .post, .bookend, .feed, .cache, .export, .reel,
             .gallery, .serve, .kiosk, .cli, .cliMail:
            self = .other(kind: error.kind.rawValue, failure: error.qualifiedCaseName)
        }
    }
}
