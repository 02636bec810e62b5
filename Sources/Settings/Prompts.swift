package import FoundationEssentials
import SystemSupport

/// `kiosk.prompts`: the questions a booth puts to its guests, one a line, in any script. The guest
/// page shows one at a time while nobody records and keeps it through the countdown and the
/// recording; the post records the one its guest answered (`prompt` in its metadata).
package struct Prompts: Sendable, Equatable {
    /// Characters (grapheme clusters) a question may have: a line on a screen, read from afar.
    package static let maximumLength = 200
    /// Questions a file may hold.
    package static let maximumCount = 500

    package let questions: [String]

    /// Reads the text of a prompts file: blank lines and lines starting with `#` are left out,
    /// each line trimmed; refused when it is not UTF-8, holds a control character, a line is longer
    /// than `maximumLength`, or no question is left. `origin` names the file in the words.
    package init(text: String, origin: String) throws(RecorderError) {
        if text.contains("\u{FFFD}") {
            throw RecorderError("\(origin) is not valid UTF-8. Save it as UTF-8 text.", kind: .badData)
        }
        var questions: [String] = []
        // (CR LF is one Character in Swift: split on lines only once it is LF)
        let lines = text.replacing("\r\n", with: "\n").replacing("\r", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (number, raw) in lines.enumerated() {
            var line = Substring(raw)
            while line.last?.isWhitespace == true { line = line.dropLast() }
            while line.first?.isWhitespace == true { line = line.dropFirst() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if let bad = line.unicodeScalars.first(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
                throw RecorderError("\(origin), line \(number + 1), contains the control character \(String(cFormat: "U+%04X", bad.value)). Remove it.", kind: .badData)
            }
            guard line.count <= Self.maximumLength else {
                throw RecorderError("\(origin), line \(number + 1), has \(line.count) characters; a question is read from afar, so the limit is \(Self.maximumLength). Shorten it.",
                                    kind: .badData)
            }
            questions.append(String(line))
        }
        guard !questions.isEmpty else {
            throw RecorderError("\(origin) holds no question (one a line; blank lines and lines starting with # are left out). Write some, or leave kiosk.prompts out.",
                                kind: .badData)
        }
        guard questions.count <= Self.maximumCount else {
            throw RecorderError("\(origin) holds \(questions.count) questions; the limit is \(Self.maximumCount).", kind: .badData)
        }
        self.questions = questions
    }
}
