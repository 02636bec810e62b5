package import SystemSupport

/// A failed FFmpeg call: which operation, its AVERROR code, FFmpeg's own text, what to do, and
/// `advice`, the settings that would help (each edge spells them).
package struct MediaError: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable, Encodable {
        case diskFull
        case permissionDenied
        case missingCodec
        case badInput
        case failed
    }

    package var kind: Kind
    package var operation: String
    package var code: Int32
    package var path: String?
    package var detail: String

    package init(_ kind: Kind, operation: String, code: Int32 = 0, path: String? = nil, detail: String = "") {
        self.kind = kind
        self.operation = operation
        self.code = code
        self.path = path
        self.detail = detail
    }

    package var description: String {
        let target = path.map { " \($0)" } ?? ""
        switch kind {
        case .diskFull:
            return "the disk is full while writing\(target) (\(operation)). Free some space; the previous shot was kept."
        case .permissionDenied:
            return "permission denied writing\(target) (\(operation))."
        case .missingCodec:
            return "\(detail) Install FFmpeg's libraries with `apt-get install libavcodec59 libavformat59 libswscale6 libswresample4 libavutil57` (scripts/setup.sh does); the previous shot was kept."
        case .badInput:
            return "\(operation): \(detail)"
        case .failed:
            return "\(operation) failed\(target.isEmpty ? "" : " for\(target)"): \(detail). The previous shot was kept; try again, and if it repeats, report this message with the camera's name and format."
        }
    }
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
}
