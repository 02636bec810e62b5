/// What a consent text (`kiosk.consent`) says about guests' mail addresses. A text asks to keep
/// the address a guest gives for their mail when one of its lines starts with ✉ (U+2709): that
/// line is the sentence the guest reads about it, and the mail screen shows it again as its opt-in
/// words. Without such a line an address lives only until its mail is sent, and is then forgotten;
/// `recorder export --with-contacts` gives only the addresses kept under such a text.
package enum MailConsent {
    /// The marker that starts the line.
    package static let marker: Character = "\u{2709}"

    /// The text's line about keeping the address (without the marker, trimmed), or nil when it asks nothing.
    package static func keepLine(in text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.drop(while: \.isWhitespace)
            // (✉ may come as ✉️, with the emoji presentation selector: one character)
            guard let first = words.first, first.unicodeScalars.first == marker.unicodeScalars.first else { continue }
            let sentence = words.dropFirst().drop(while: \.isWhitespace)
            var end = sentence.endIndex
            while end > sentence.startIndex, sentence[sentence.index(before: end)].isWhitespace { end = sentence.index(before: end) }
            return String(sentence[..<end])
        }
        return nil
    }

    /// Whether a guest who agreed to `text` agreed to their address being kept.
    package static func asksToKeep(_ text: String) -> Bool { keepLine(in: text) != nil }
}
