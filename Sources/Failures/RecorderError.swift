package import MediaValues
package import StoreValues
package import SystemSupport

/// Every failure the CLI and the service report, as a closed set: a lower module's typed error as
/// it is (`capture`, `audio`, `media`, `storage`), or one of the recorder's own failure enums, each
/// with its case and data (`shot(.alreadyRecording)`, `post(.alreadyPosted(id:whereItIs:))`...).
/// Nothing here is worded: each edge switches over these cases (the compiler finds a case it does
/// not word) and turns the kind into its own status (the CLI a sysexits status, the kiosk an HTTP
/// status). Code decides by `kind` (what happened), by the case, or by `cause` (the lower error
/// behind it). A new failure enum is a new case here, and conforms to `RecorderFailure`.
package enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    // The lower modules' errors
    case capture(CaptureError)
    case media(MediaError)
    case audio(AudioError)
    case storage(StorageError)
    // The recorder's own failures, one case per enum
    case configuration(ConfigurationProblem)
    case text(TextProblem)
    case internalFailure(InternalFailure)
    case shot(ShotFailure)
    case post(PostFailure)
    case bookend(BookendFailure)
    case feed(FeedFailure)
    case cache(CacheFailure)
    case export(ExportFailure)
    case reel(ReelFailure)
    case gallery(GalleryFailure)
    case serve(ServeFailure)
    case kiosk(KioskProblem)
    case cli(CLIFailure)
    case cliMail(CLIMailFailure)

    package init(_ failure: some RecorderFailure) { self = failure.wrapped }
    package init(_ error: CaptureError) { self = .capture(error) }
    package init(_ error: MediaError) { self = .media(error) }
    package init(_ error: AudioError) { self = .audio(error) }
    package init(_ error: StorageError) { self = .storage(error) }

    /// What the case carries: a lower module's error, or one of the recorder's own failures (each
    /// says of itself its kind, advice, cause, case and data: `RecorderFailure`).
    enum Carried {
        case capture(CaptureError), media(MediaError), audio(AudioError), storage(StorageError)
        case own(any RecorderFailure)
    }

    var carried: Carried {
        switch self {
        case .capture(let error): .capture(error)
        case .media(let error): .media(error)
        case .audio(let error): .audio(error)
        case .storage(let error): .storage(error)
        case .configuration(let problem): .own(problem)
        case .text(let problem): .own(problem)
        case .internalFailure(let failure): .own(failure)
        case .shot(let failure): .own(failure)
        case .post(let failure): .own(failure)
        case .bookend(let failure): .own(failure)
        case .feed(let failure): .own(failure)
        case .cache(let failure): .own(failure)
        case .export(let failure): .own(failure)
        case .reel(let failure): .own(failure)
        case .gallery(let failure): .own(failure)
        case .serve(let failure): .own(failure)
        case .kiosk(let failure): .own(failure)
        case .cli(let failure): .own(failure)
        case .cliMail(let failure): .own(failure)
        }
    }

    /// What happened, for code that decides and for the edges' statuses.
    package var kind: Kind {
        switch carried {
        case .capture(let error): Kind(error)
        case .media(let error): Kind(error)
        case .audio(let error): Kind(error)
        case .storage(let error): Kind(error)
        case .own(let failure): failure.kind
        }
    }

    /// Settings that would help: the lower error's own, or the failure's.
    package var advice: [SettingAdvice] {
        switch carried {
        case .capture(let error): error.advice
        case .media(let error): error.advice
        case .audio(let error): error.advice
        case .storage(let error): error.advice
        case .own(let failure): failure.advice
        }
    }

    /// The lower layer's typed error this came from (`.capture`, `.media`, `.audio` or
    /// `.storage`), following failures that tell another; nil when there is none.
    package var cause: RecorderError? {
        switch carried {
        case .capture, .media, .audio, .storage: self
        case .own(let failure): failure.cause?.cause
        }
    }

    /// The failure as its enum, when it is one of `type`'s cases (`F(unwrapping:)`).
    package func failure<F: RecorderFailure>(as type: F.Type) -> F? {
        F(unwrapping: self)
    }

    /// The case's name (`alreadyPosted`, `storage`...), for `--json` and machines.
    package var caseName: String {
        switch carried {
        case .capture: "capture"
        case .media: "media"
        case .audio: "audio"
        case .storage: "storage"
        case .own(let failure): failure.caseName
        }
    }

    /// The case as scripts name it: `Type.case` (`PostFailure.noFinishedShot`) for a failure,
    /// `storage`, `capture`... for the device and store modules' errors.
    package var qualifiedCaseName: String {
        switch carried {
        case .capture, .media, .audio, .storage: caseName
        case .own(let failure): "\(type(of: failure)).\(caseName)"
        }
    }

    /// The case's data (`RecorderFailure.caseData`); for a store's error its kind's data and
    /// whether trying again can help; for a device's or the encoder's, its fields.
    package var caseData: CaseData {
        switch carried {
        case .capture(let error): CaseData(encoding: error)
        case .media(let error): CaseData(encoding: error)
        case .audio(let error): CaseData(encoding: error)
        case .storage(let error): error.caseData
        case .own(let failure): failure.caseData
        }
    }

    /// The failure as `--json` gives it: `{kind, failure, data}` (what a failure inside another's
    /// data is too).
    package var document: CaseData {
        .object(["kind": .text(kind.rawValue), "failure": .text(qualifiedCaseName), "data": caseData])
    }

    /// A lower error's own words; a failure's kind and case with its data, for debugging only
    /// (the edges word failures themselves).
    package var description: String {
        switch carried {
        case .capture(let error): error.description
        case .media(let error): error.description
        case .audio(let error): error.description
        case .storage(let error): error.description
        case .own(let failure): "\(kind.rawValue): \(failure)"
        }
    }

    /// Wraps any error, keeping the typed ones as they are.
    package static func wrap(_ error: any Error) -> RecorderError {
        switch error {
        case let e as RecorderError: e
        case let e as CaptureError: .capture(e)
        case let e as MediaError: .media(e)
        case let e as StorageError: .storage(e)
        case let e as AudioError: .audio(e)
        case let e as any RecorderFailure: e.wrapped
        default: .internalFailure(.unexpected("\(error)"))
        }
    }
}

extension StorageError {
    /// The store's error as scripts read it: its kind's data and whether trying again can help.
    var caseData: CaseData {
        guard case .object(var fields) = CaseData(encoding: kind) else { return CaseData(encoding: kind) }
        fields["retryable"] = .bool(isRetryable)
        return .object(fields)
    }
}

/// Whether the error is this failure, case and data: `#expect(error == PostFailure.alreadyPosted(...))`.
package func == <F: RecorderFailure>(lhs: RecorderError?, rhs: F) -> Bool {
    lhs?.failure(as: F.self) == rhs
}
