internal import CFFmpeg
import MediaValues

extension MediaError {
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
        return MediaError(kind, .call(function: operation, message: Self.text(code)), code: code, path: path)
    }

    /// FFmpeg's message for an AVERROR code.
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        // (a code FFmpeg does not know still gets its generic "Error number N occurred")
        _ = cff_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
