package import SystemSupport

/// A failure of the recorder's own modules, as a case with its data (`.alreadyPosted(id:...)`,
/// `.storeMissing(path)`), never a sentence: each subject has its enum (`ConfigurationProblem`,
/// `ShotFailure`, `PostFailure`...), and `RecorderError` has one case for each (`wrapped`). The
/// words are the edges': the kiosk's operator words (configuration keys), the CLI's (its flags and
/// commands), the guest's one sentence (`GuestWording`); each switches over `RecorderError`'s cases.
///
/// `kind` says what happened for the edges' statuses (a sysexits status, an HTTP status); `advice`
/// the settings that would help, spelled by the edge; `cause` the lower error behind it, if any.
package protocol RecorderFailure: FailureCarried, Equatable, Encodable {
    /// What happened, for the edges' statuses and for code that decides.
    var kind: RecorderError.Kind { get }
    /// Settings that would help; by default the cause's.
    var advice: [SettingAdvice] { get }
    /// The error this one tells in its own terms, if any (a store's, a device's, another failure).
    var cause: RecorderError? { get }
    /// The case's name (`alreadyPosted`), for `--json` and logs that machines read; by default
    /// the enum case's own, from its encoding.
    var caseName: String { get }
    /// The case's data by label, for `--json` (`{"id": ..., "whereItIs": {...}}`); by default the
    /// enum case's own values, from its encoding (`CaseData(valuesOf:)`). A failure that holds a
    /// secret leaves it out.
    var caseData: CaseData { get }
    /// The failure `error` carries, when it is this enum's case (`failure(as:)`); else nil.
    init?(unwrapping error: RecorderError)
}

/// An error `RecorderError` carries as one of its cases: inside another failure's data, it is
/// that failure (`{kind, failure, data}`).
package protocol FailureCarried: Error, Sendable {
    /// This error as the `RecorderError` case that carries it (`.post(self)`, `.storage(self)`).
    var wrapped: RecorderError { get }
}

extension RecorderFailure {
    package var advice: [SettingAdvice] { cause?.advice ?? [] }
    package var cause: RecorderError? { nil }

    package var caseName: String { CaseData(encoding: self).caseName ?? "\(self)" }

    package var caseData: CaseData { CaseData(valuesOf: self) }
}

/// A failure that is a bug, or that the recorder cannot explain: no user can fix it, so its data
/// is what a bug report needs.
package enum InternalFailure: RecorderFailure {
    /// A document could not be encoded (`failure`: what the encoder said).
    case cannotEncode(document: Document, failure: EncodingFailure)
    /// An error of a type the recorder does not know, as Swift describes it.
    case unexpected(String)
    /// A state machine was asked for a change it does not allow.
    case illegalStateChange(String)
    /// A worker ended without saying how (`what`: "the shot's thread").
    case noOutcome(String)

    package var kind: RecorderError.Kind { .internalFailure }

    /// The documents the recorder writes as JSON.
    package enum Document: Sendable, Equatable, Codable {
        /// A shot's `shot.json`.
        case shot
        /// The consent record beside a shot.
        case consent
        /// A post's metadata.
        case postMetadata
        /// A post's receipt in the outbox.
        case receipt
        /// A queued post's state in the outbox.
        case outboxState
        /// A host's gallery.
        case gallery
    }
}

extension InternalFailure {
    package var wrapped: RecorderError { .internalFailure(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .internalFailure(let failure) = error else { return nil }
        self = failure
    }
}
