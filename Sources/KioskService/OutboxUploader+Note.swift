import Failures
import KioskWords
package import Publishing
import SystemSupport

extension OutboxUploader.Note {
    /// The note in the operator's words (the kiosk's journal, and `recorder outbox flush` and
    /// `recorder post`, which print it as a note).
    package var words: String {
        switch self {
        case .retrying(let id, let error, let seconds):
            "upload of \(id) failed (\(OperatorWords.message(.storage(error)))); retrying in \(String(cFormat: "%.1f", seconds)) s"
        case .cannotRecordFailure(let id, let path, let error):
            "warning: post \(id): cannot record its upload error in \(path): \(OperatorWords.message(error))"
        case .renamed(let old, let new):
            "the name \(old) is taken in the store; this post is now \(new)"
        case .withoutPoster(let id, let error):
            "post \(id) goes up without a poster: \(OperatorWords.message(.media(error)))"
        }
    }
}
