package import SystemSupport

/// A failure of the media code: its kind (what the code decides by), its reason (a case with its
/// data: what the edges word, `OperatorWords.media`), the AVERROR code or errno, and the file.
package struct MediaError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable, Codable {
        case diskFull
        case permissionDenied
        case missingCodec
        case badInput
        case failed
    }

    package var kind: Kind
    /// What happened, with its data.
    package var reason: Reason
    /// FFmpeg's AVERROR code, or an errno; 0 for none.
    package var code: Int32
    package var path: String?

    package init(_ kind: Kind, _ reason: Reason, code: Int32 = 0, path: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.code = code
        self.path = path
    }

    /// For debugging only (the edges word it): its kind, its reason's data and its file.
    package var description: String { "\(kind): \(reason)" + (path.map { " (\($0))" } ?? "") }
}

extension MediaError {
    /// The settings that would help, spelled by the edge that reports the error.
    package var advice: [SettingAdvice] {
        switch kind {
        case .diskFull: [SettingAdvice(.workspace, "DIRECTORY", "on a larger disk")]
        case .permissionDenied: [SettingAdvice(.workspace, "DIRECTORY", "with a writable directory")]
        case .missingCodec, .badInput, .failed: []
        }
    }

    /// The FFmpeg or system call that failed, for a failure that is one; nil for the others.
    package var call: String? {
        switch reason {
        case .call(let function, _), .noObject(let function), .system(let function, _): function
        default: nil
        }
    }
}
