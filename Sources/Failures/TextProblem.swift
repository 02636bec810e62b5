/// Text a person wrote that cannot be used as it is: a caption, a consent text, a prompts file.
/// The edges word it (what is wrong and where, and the fix).
package struct TextProblem: RecorderFailure {
    /// Whose text.
    package enum Subject: Sendable, Equatable, Encodable {
        /// A post's caption; `source`: where it was read from (a file, standard input), nil when given as it is.
        case caption(source: String?)
        /// The text a guest agrees to (`kiosk.consent`).
        case consent
        /// The questions of `kiosk.prompts`; `origin`: the file, and where the setting came from.
        case prompts(origin: String)
    }

    /// What is wrong with it.
    package enum Issue: Sendable, Equatable, Encodable {
        case notUTF8
        /// A control character (its code point), on `line` when the text is read by lines.
        case controlCharacter(UInt32, line: Int?)
        /// `count` characters (on `line`, when read by lines), more than `limit`.
        case tooLong(count: Int, limit: Int, line: Int?)
        /// Nothing in it.
        case empty
        /// `count` items (questions), more than `limit`.
        case tooMany(count: Int, limit: Int)
    }

    package var subject: Subject
    package var issue: Issue

    package init(_ subject: Subject, _ issue: Issue) {
        self.subject = subject
        self.issue = issue
    }

    package var kind: RecorderError.Kind { .badData }

    /// The issue's case (`tooLong`): whose text it is, the command says.
    package var caseName: String { CaseData(encoding: issue).caseName ?? "\(issue)" }

    /// The issue's data, and whose text: `{"count": 300, "limit": 280, "subject": {"case": "caption", ...}}`.
    package var caseData: CaseData {
        guard case .object(var fields) = CaseData(valuesOf: issue) else { return CaseData(valuesOf: issue) }
        fields["subject"] = CaseData(encoding: subject)
        return .object(fields)
    }
}

extension TextProblem {
    package var wrapped: RecorderError { .text(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .text(let failure) = error else { return nil }
        self = failure
    }
}
