package import FoundationEssentials
import Glibc

/// UTC timestamps in RFC 3339 form, whole seconds: `2026-11-22T10:42:38Z`.
///
/// Formatted with the C library: Foundation's ISO 8601 formatters bring in ICU, which added 3 MB
/// of resident memory to every shot just to write one date into shot.json.
package enum RFC3339 {
    package static func string(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Parses what `string` writes; nil for anything else.
    package static func date(_ text: String) -> Date? {
        let fields = text.split(whereSeparator: { "-T:Z".contains($0) })
        guard text.utf8.count == 20, text.hasSuffix("Z"), fields.count == 6 else { return nil }
        let n = fields.compactMap { Int32($0) }
        guard n.count == 6, (1...12).contains(n[1]), (1...31).contains(n[2]), (0...23).contains(n[3]),
              (0...59).contains(n[4]), (0...60).contains(n[5]) else { return nil }
        var parts = tm()
        parts.tm_year = n[0] - 1900
        parts.tm_mon = n[1] - 1
        parts.tm_mday = n[2]
        parts.tm_hour = n[3]
        parts.tm_min = n[4]
        parts.tm_sec = n[5]
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    package static func encode(_ date: Date, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string(date))
    }

    package static func decode(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = date(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 UTC time: \(text)")
        }
        return date
    }
}
