internal import CFFmpeg
package import SystemSupport

/// A failed FFmpeg call: which operation, its AVERROR code, FFmpeg's own text, what to do, and
/// `advice`, the settings that would help (each edge spells them).
package struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
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

    /// Classifies a negative AVERROR code returned by `operation`.
    static func check(_ code: Int32, _ operation: String, path: String? = nil) throws(MediaError) {
        guard code < 0 else { return }
        throw MediaError.from(code, operation, path: path)
    }

    static func from(_ code: Int32, _ operation: String, path: String? = nil) -> MediaError {
        let kind: Kind
        switch code {
        case CFF_AVERROR_ENOSPC: kind = .diskFull
        case CFF_AVERROR_EACCES: kind = .permissionDenied
        default: kind = .failed
        }
        return MediaError(kind, operation: operation, code: code, path: path, detail: Self.text(code))
    }

    /// FFmpeg's message for an AVERROR code.
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        // (a code FFmpeg does not know still gets its generic "Error number N occurred")
        _ = cff_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
