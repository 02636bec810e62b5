import FoundationEssentials
package import SystemSupport
package import Failures

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
    /// than `maximumLength`, or no question is left. `origin` names the file.
    package init(text: String, origin: String) throws(RecorderError) {
        if text.contains("\u{FFFD}") {
            throw RecorderError(TextProblem(.prompts(origin: origin), .notUTF8))
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
                throw RecorderError(TextProblem(.prompts(origin: origin), .controlCharacter(bad.value, line: number + 1)))
            }
            guard line.count <= Self.maximumLength else {
                throw RecorderError(TextProblem(.prompts(origin: origin), .tooLong(count: line.count, limit: Self.maximumLength, line: number + 1)))
            }
            questions.append(String(line))
        }
        guard !questions.isEmpty else {
            throw RecorderError(TextProblem(.prompts(origin: origin), .empty))
        }
        guard questions.count <= Self.maximumCount else {
            throw RecorderError(TextProblem(.prompts(origin: origin), .tooMany(count: questions.count, limit: Self.maximumCount)))
        }
        self.questions = questions
    }
}
