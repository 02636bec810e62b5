/// The name a guest's phone saves a shared video under: the post's caption, else who posted it (the
/// event: `author_name`) and the day, never the post's id. A caption is a guest's text and a name
/// is the phone's file system's: the name keeps what reads as words (letters of any script, emoji
/// with their joiners, punctuation) and leaves out what a file system or a header takes another
/// way - control characters (line breaks among them), direction overrides that could turn an
/// extension around, path separators, the characters Windows refuses, double quotes, leading
/// dots - and is at most 80 bytes before `.mp4`.
package enum ShareFileName {
    /// At most this many UTF-8 bytes before ".mp4" (whole characters only).
    static let maximumBytes = 80

    /// The file name for `metadata`'s `part` (its video: with `.mp4`).
    package static func name(for metadata: PostMetadata, part: Part = .video) -> String {
        var name = cleaned(metadata.caption)
        if name.isEmpty {
            let day = String(metadata.createdAt.prefix(10))
            name = cleaned(metadata.author.name + (isDay(day) ? " " + day : ""))
        }
        return (name.isEmpty ? "video" : name) + part.ending
    }

    /// Which of a post's files: its video, the video saved as a loop (a boomerang), the take its
    /// effect was made from, or a boomerang's GIF.
    package enum Part: Sendable {
        case video, loop, take, gif

        var ending: String {
            switch self {
            case .video: ".mp4"
            case .loop: "-loop.mp4"
            case .take: "-take.mp4"
            case .gif: ".gif"
            }
        }
    }

    /// `text` with what no file name should hold left out, runs of spaces made one, no space or dot
    /// at either end, cut to `maximumBytes` at a character's end.
    static func cleaned(_ text: String) -> String {
        var out = ""
        var space = false
        for character in text {
            if character.unicodeScalars.contains(where: isRefused) {
                // (a line break or a tab is a space between words; anything else is dropped)
                if character.isWhitespace { space = true }
                continue
            }
            if character.isWhitespace {
                space = true
                continue
            }
            if space && !out.isEmpty { out += " " }
            space = false
            guard out.utf8.count + character.utf8.count <= maximumBytes else { break }
            out.append(character)
        }
        while let first = out.first, first == "." || first == " " { out.removeFirst() }
        while let last = out.last, last == "." || last == " " { out.removeLast() }
        return out
    }

    /// Control characters, format characters other than the joiners that hold emoji and scripts
    /// together, path separators, the characters Windows refuses in a name, and double quotes.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .unassigned, .privateUse, .lineSeparator, .paragraphSeparator: return true
        // U+200C, U+200D: the joiners (a family emoji, Persian words); every other format
        // character (U+202E turning "gpj.mp4" around, U+2066...) goes.
        case .format: return scalar.value != 0x200C && scalar.value != 0x200D
        default: return "/\\<>:\"|?*".unicodeScalars.contains(scalar)
        }
    }

    /// The `Content-Disposition` of the video: shown in the page (`inline`), saved as `name`. RFC 6266:
    /// `filename*` carries the name as UTF-8, every byte but RFC 5987's attr-chars percent-encoded,
    /// and `filename` an ASCII stand-in for old browsers; no byte of either can end the header or
    /// the quoted string (no CR, LF, quote or backslash is left).
    /// A file of another kind keeps its own extension (`.zip`, `.pdf`); `attachment` asks the
    /// browser to save it rather than show it.
    package static func contentDisposition(_ name: String, attachment: Bool = false) -> String {
        let dot = name.lastIndex(of: ".").flatMap { name.distance(from: $0, to: name.endIndex) <= 5 ? $0 : nil }
        let (base, kind) = dot.map { (String(name[..<$0]), String(name[$0...])) } ?? (name, ".mp4")
        let ascii = cleaned(String(String.UnicodeScalarView(base.unicodeScalars.filter { $0.isASCII && $0 != "%" })))
        let fallback = (ascii.isEmpty ? "video" : ascii) + String(String.UnicodeScalarView(kind.unicodeScalars.filter { $0.isASCII && $0 != "%" && $0 != "\"" && $0 != "\\" }))
        return (attachment ? "attachment" : "inline") + "; filename=\"\(fallback)\"; filename*=UTF-8''\(percentEncoded(name))"
    }

    /// A folder's or an archive's name for an event (its name cleaned as a caption is), never empty.
    package static func folderName(_ event: String) -> String {
        let name = cleaned(event)
        return name.isEmpty ? "recorder" : name
    }

    /// Whether `text` is a day as `YYYY-MM-DD`.
    private static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 ? $0.element == UInt8(ascii: "-") : (48...57).contains($0.element) }
    }

    /// RFC 5987's attr-chars as they are, every other byte of the UTF-8 as %XX.
    static func percentEncoded(_ text: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if kept.contains(byte) { out.append(byte) } else { out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
