import SystemSupport

/// A title card's lines as an ASS subtitle, which libavfilter's `ass` filter (libass) draws: a
/// font for the words (DejaVu Sans, fonts-dejavu-core) and, glyph by glyph, any other font
/// fontconfig has for what it lacks: emoji from Symbola (fonts-symbola), in outline, one colour.
/// `drawtext` draws from one font alone, so "🎉" came out as an empty box (and was left out);
/// and libass shapes Arabic and lays right-to-left text out as it is read, which drawtext did
/// not. Colour is not to be had here: Debian 12's libass draws no colour glyphs, and drawtext
/// draws Noto Color Emoji's only in grey, at its one size (109 px).
enum CardSubtitle {
    /// The font the words are drawn in; fontconfig finds the rest.
    static let font = "DejaVu Sans"

    /// The document: `lines` from the top, centred as one block on a `width` x `height` picture
    /// (sizes as shares of the height, as `CardLine` gives them), shown for `seconds`.
    static func document(_ lines: [ReelWriter.CardLine], width: Int, height: Int, seconds: Double) -> String {
        let text = lines.map { "{\\fs\(max(Int(($0.size * Double(height)).rounded()), 8))}" + escaped($0.text) }.joined(separator: "\\N")
        // (WrapStyle 2: no wrapping of libass's own, the lines are wrapped already; alignment 5:
        // the middle of the picture; no outline and no shadow, white on the card's colour)
        return """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: \(width)
            PlayResY: \(height)
            WrapStyle: 2
            ScaledBorderAndShadow: yes

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Card,\(font),\(max(height / 20, 8)),&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,5,0,0,0,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.00,\(time(seconds + 1)),Card,,0,0,0,,\(text)

            """
    }

    /// A guest's text as ASS text that draws it as written: a backslash followed by a word joiner
    /// (no escape of libass's, `\N` or `\h`, begins there), braces as `\{` and `\}` (no override
    /// block begins), a line break as a space.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\u{2060}"
            case "{": out += "\\{"
            case "}": out += "\\}"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// H:MM:SS.cc.
    private static func time(_ seconds: Double) -> String {
        let centiseconds = Int((seconds * 100).rounded(.up))
        let (hours, rest) = centiseconds.quotientAndRemainder(dividingBy: 360_000)
        let (minutes, within) = rest.quotientAndRemainder(dividingBy: 6000)
        return "\(hours):" + String(cFormat: "%02d:%02d.%02d", Int32(minutes), Int32(within / 100), Int32(within % 100))
    }
}
