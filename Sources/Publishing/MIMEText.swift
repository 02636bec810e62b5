package import FoundationEssentials
import Glibc
internal import SystemSupport

/// The encodings a mail's header fields and parts are written in: RFC 2045's quoted-printable and
/// base64 (lines of at most 76 characters), RFC 2047's encoded words for a header's text, RFC
/// 5322's date. Everything they return is 7-bit ASCII with CRLF line ends.
package enum MIMEText {
    /// Quoted-printable (RFC 2045 6.7) of `text`'s lines as UTF-8: each "\n" becomes a CRLF, every
    /// byte outside printable ASCII (and `=`) becomes `=XX`, a space or tab before a line end is
    /// encoded, and a line longer than 76 characters is broken with a soft `=`. A line that starts
    /// with a dot gets it encoded, so no transport's dot-stuffing is needed to keep it.
    package static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let bytes = Array(line.utf8)
            var column = 0
            for (i, byte) in bytes.enumerated() {
                let last = i == bytes.count - 1
                var encoded: [UInt8]
                if (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !last) {
                    encoded = [byte]
                } else {
                    encoded = [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                }
                if column == 0 && byte == UInt8(ascii: ".") { encoded = Array("=2E".utf8) }
                // A soft break keeps each line at 76 characters with its "=".
                if column + encoded.count > (last ? 76 : 75) {
                    out += Array("=\r\n".utf8)
                    column = 0
                    if byte == UInt8(ascii: ".") { encoded = Array("=2E".utf8) }
                }
                out += encoded
                column += encoded.count
            }
            if index < lines.count - 1 { out += [13, 10] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Base64 in lines of 76 characters, each ended by CRLF.
    package static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Array(Data(bytes).base64EncodedString().utf8)
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / 38 + 2)
        var start = 0
        while start < encoded.count {
            let end = min(start + 76, encoded.count)
            out += encoded[start..<end]
            out += [13, 10]
            start = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A header field's text (a subject; a display name when `phrase`): control characters and
    /// line breaks made spaces, then as it is when it is short plain ASCII words (for a phrase:
    /// letters, digits and RFC 5322's atext symbols only), else as RFC 2047 encoded words
    /// (`=?UTF-8?B?...?=`, at most 68 characters each, whole characters in each), folded with CRLF
    /// and a space so no line of the field passes 78 characters.
    /// `name` is the field's name, whose length counts on the first line.
    package static func headerText(_ text: String, field name: String, phrase: Bool = false) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) || $0.properties.isWhitespace ? " " : $0 }))
        let words = clean.split(separator: " ")
        let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~".utf8)
        let plain = words.allSatisfy { word in
            word.utf8.count <= 70 && !word.contains("=?")
                && word.utf8.allSatisfy { phrase ? ($0 < 128 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || atextSymbols.contains($0)))
                                                 : ($0 >= 33 && $0 <= 126) }
        }
        var lines: [String] = []
        var current = name + ":"
        func add(_ word: String) {
            if current.utf8.count + 1 + word.utf8.count > 78 && current != name + ":" {
                lines.append(current)
                current = ""
            }
            current += " " + word
        }
        if plain {
            words.forEach { add(String($0)) }
        } else {
            // Whole characters per word, at most 42 bytes: 56 of base64, 68 with the word's frame,
            // so even the first line, after "Subject: ", stays within 78.
            var chunk: [UInt8] = []
            for scalar in clean.unicodeScalars {
                let bytes = Array(String(scalar).utf8)
                if chunk.count + bytes.count > 42 {
                    add("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                    chunk = []
                }
                chunk += bytes
            }
            if !chunk.isEmpty || lines.isEmpty { add("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }

    /// RFC 5322 3.3's date-time, in UTC: `Tue, 24 Nov 2026 18:05:00 +0000`.
    package static func date(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[Int(parts.tm_wday)]), \(String(cFormat: "%02d", parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + String(cFormat: "%04d %02d:%02d:%02d +0000", parts.tm_year + 1900, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
