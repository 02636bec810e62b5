package import SystemSupport
package import MediaValues
package import StoreValues

/// Every failure the CLI and the service report: a lower layer's typed error as it is, or a
/// failure of the recorder's own modules as a case with its data (`failed`: a `ShotFailure`, a
/// `PostFailure`...; see `RecorderFailure`). Code decides by `kind` (what happened), by the case
/// (`failure(as:)`), or by `cause` (the lower error behind it). Nothing here is worded: each edge
/// turns the kind into its own status (the CLI a sysexits status, the kiosk an HTTP status) and
/// words the case its own way (the CLI with flags, the operator page with configuration keys, the
/// guest in one plain sentence).
package enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    case capture(CaptureError)
    case media(MediaError)
    case audio(AudioError)
    case storage(StorageError)
    /// A failure of the recorder's own modules, with its data.
    case failed(any RecorderFailure)

    package init(_ failure: some RecorderFailure) { self = .failed(failure) }
    package init(_ error: CaptureError) { self = .capture(error) }
    package init(_ error: MediaError) { self = .media(error) }
    package init(_ error: AudioError) { self = .audio(error) }
    package init(_ error: StorageError) { self = .storage(error) }

    /// What happened, for code that decides and for the edges' statuses.
    package var kind: Kind {
        switch self {
        case .capture(let error): Kind(error)
        case .media(let error): Kind(error)
        case .audio(let error): Kind(error)
        case .storage(let error): Kind(error)
        case .failed(let failure): failure.kind
        }
    }

    /// Settings that would help: the lower error's own, or the failure's.
    package var advice: [SettingAdvice] {
        switch self {
        case .capture(let error): error.advice
        case .media(let error): error.advice
        case .audio(let error): error.advice
        case .storage(let error): error.advice
        case .failed(let failure): failure.advice
        }
    }

    /// The lower layer's typed error this came from (`.capture`, `.media`, `.audio` or
    /// `.storage`), following failures that tell another; nil when there is none.
    package var cause: RecorderError? {
        switch self {
        case .capture, .media, .audio, .storage: self
        case .failed(let failure): failure.cause?.cause
        }
    }

    /// The recorder's own failure, if this is one.
    package var failure: (any RecorderFailure)? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    /// The failure as its concrete enum, if it is one of `type`'s cases.
    package func failure<F: RecorderFailure>(as type: F.Type) -> F? {
        failure as? F
    }

    /// The case's name (`alreadyPosted`, `storage`...), for `--json` and machines.
    package var caseName: String {
        switch self {
        case .capture: "capture"
        case .media: "media"
        case .audio: "audio"
        case .storage: "storage"
        case .failed(let failure): failure.caseName
        }
    }

    /// The case as scripts name it: `Type.case` (`PostFailure.noFinishedShot`) for a failure,
    /// `storage`, `capture`... for the device and store modules' errors.
    package var qualifiedCaseName: String { failure.map { "\(type(of: $0)).\(caseName)" } ?? caseName }

    /// The case's data (`RecorderFailure.caseData`); for a store's error its kind's data and
    /// whether trying again can help; for a device's or the encoder's, its fields.
    package var caseData: CaseData {
        switch self {
        case .capture(let error): return CaseData.reflecting(structure: error)
        case .media(let error): return CaseData.reflecting(structure: error)
        case .audio(let error): return CaseData.reflecting(structure: error)
        case .storage(let error):
            guard case .object(var fields) = CaseData(reflecting: error.kind) else { return CaseData(reflecting: error.kind) }
            fields["retryable"] = .bool(error.isRetryable)
            return .object(fields)
        case .failed(let failure): return failure.caseData
        }
    }

    package static func == (lhs: RecorderError, rhs: RecorderError) -> Bool {
        switch (lhs, rhs) {
        case (.capture(let a), .capture(let b)): a == b
        case (.media(let a), .media(let b)): a == b
        case (.audio(let a), .audio(let b)): a == b
        case (.storage(let a), .storage(let b)): a == b
        case (.failed(let a), .failed(let b)): a.isSame(as: b)
        default: false
        }
    }

    /// A lower error's own words; a failure's kind and case with its data, for debugging only
    /// (the edges word failures themselves).
    package var description: String {
        switch self {
        case .capture(let error): error.description
        case .media(let error): error.description
        case .audio(let error): error.description
        case .storage(let error): error.description
        case .failed(let failure): "\(kind.rawValue): \(failure)"
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
        case let e as any RecorderFailure: .failed(e)
        default: .failed(InternalFailure.unexpected("\(error)"))
        }
    }
}

/// Whether the error is this failure, case and data: `#expect(error == PostFailure.alreadyPosted(...))`.
package func == <F: RecorderFailure>(lhs: RecorderError?, rhs: F) -> Bool {
    lhs?.failure(as: F.self) == rhs
}
