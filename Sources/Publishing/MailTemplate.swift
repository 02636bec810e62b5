package import MailValues

/// The words of a guest's mail: a text file with `{link}`, `{caption}`, `{event}` and `{expires}`
/// where those go (`mail.template`; the subject, `mail.subject`, is one too). Filled twice, for the
/// text part as it is and for the HTML part escaped, so no value (a caption is a guest's text)
/// can add markup, and a line whose field has no value is left out ("The link works until
/// {expires}." with no retention).
package struct MailTemplate: Sendable, Equatable {
    /// A field a template fills (`MailTemplateField`, MailValues).
    package typealias Field = MailTemplateField

    /// Why a template text cannot be used (`MailTemplateProblem`, MailValues).
    package typealias Problem = MailTemplateProblem

    package static let maximumLength = MailTemplateProblem.maximumLength

    private enum Piece: Sendable, Equatable {
        case text(String)
        case field(Field)
    }

    /// The template's lines, each as text and fields.
    private let lines: [[Piece]]

    /// Parses `text`: `{name}` of lowercase letters is a field (and must be a known one); any other
    /// brace is text. `requiring` lists fields that must appear.
    package init(_ text: String, requiring: Set<Field> = []) throws(Problem) {
        guard text.count <= Self.maximumLength else { throw .tooLong(text.count) }
        if let bad = text.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t") || (0x7f...0x9f).contains($0.value) }) {
            throw .controlCharacter(bad.value)
        }
        var lines: [[Piece]] = []
        var seen: Set<Field> = []
        for line in Self.lines(of: text) {
            var pieces: [Piece] = []
            var rest = line[...]
            while let open = rest.firstIndex(of: "{") {
                let after = rest[rest.index(after: open)...]
                let name = after.prefix(while: { $0.isASCII && $0.isLowercase || $0 == "_" })
                guard !name.isEmpty, after.dropFirst(name.count).first == "}" else {
                    pieces.append(.text(String(rest[...open])))
                    rest = after
                    continue
                }
                guard let field = Field(rawValue: String(name)) else { throw .unknownField(String(name)) }
                if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
                pieces.append(.field(field))
                seen.insert(field)
                rest = after.dropFirst(name.count + 1)
            }
            if !rest.isEmpty { pieces.append(.text(String(rest))) }
            lines.append(pieces)
        }
        if let missing = Field.allCases.first(where: { requiring.contains($0) && !seen.contains($0) }) { throw .missingField(missing) }
        self.lines = lines
    }

    /// The body used when `mail.template` is not set.
    package static let standardBody = try! MailTemplate("""
        Hello,

        here is your video from {event}:
        {link}

        {caption}

        The link works until {expires}.
        """, requiring: [.link])

    /// The subject used when `mail.subject` is not set.
    package static let standardSubject = try! MailTemplate("Your video from {event}")
    /// The subject when the standard one would lose its field (no event name).
    package static let plainSubject = try! MailTemplate("Your video")

    /// The fields this template uses.
    package var fields: Set<Field> {
        Set(lines.joined().compactMap { if case .field(let f) = $0 { f } else { nil } })
    }

    /// Plain text, lines joined with "\n": values as they are, with their own line breaks kept
    /// (as "\n"). A line with a field whose value is empty is left out, and so is a blank line that
    /// would follow another or end the text.
    package func text(_ values: [Field: String]) -> String {
        rendered(values) { piece in
            switch piece {
            case .text(let text): text
            case .field(let field): Self.lines(of: values[field] ?? "").joined(separator: "\n")
            }
        }.joined(separator: "\n")
    }

    /// The same, for a one-line use (a subject): line breaks in values become spaces, lines join with a space.
    package func line(_ values: [Field: String]) -> String {
        rendered(values) { piece in
            switch piece {
            case .text(let text): text
            case .field(let field): Self.lines(of: values[field] ?? "").joined(separator: " ")
            }
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// HTML for the inside of `<body>`: paragraphs at blank lines, `<br>` within them, every text
    /// and value escaped, `{link}` as a link to itself.
    package func html(_ values: [Field: String]) -> String {
        let lines = rendered(values) { piece in
            switch piece {
            case .text(let text): HTMLText.escaped(text)
            case .field(.link):
                "<a href=\"\(HTMLText.escaped(values[.link] ?? ""))\">\(HTMLText.escaped(values[.link] ?? ""))</a>"
            case .field(let field): Self.lines(of: values[field] ?? "").map(HTMLText.escaped).joined(separator: "<br>\n")
            }
        }
        var paragraphs: [[String]] = [[]]
        for line in lines {
            if line.isEmpty { paragraphs.append([]) } else { paragraphs[paragraphs.count - 1].append(line) }
        }
        return paragraphs.filter { !$0.isEmpty }.map { "<p>" + $0.joined(separator: "<br>\n") + "</p>" }.joined(separator: "\n")
    }

    /// The lines with values put in by `render`; lines with an empty field dropped, blank lines
    /// never twice in a row, nor at either end.
    private func rendered(_ values: [Field: String], _ render: (Piece) -> String) -> [String] {
        var out: [String] = []
        for line in lines {
            let empty = line.contains { if case .field(let f) = $0 { (values[f] ?? "").allSatisfy(\.isWhitespace) } else { false } }
            if empty { continue }
            let text = line.map(render).joined()
            if text.allSatisfy(\.isWhitespace) {
                if let last = out.last, !last.isEmpty { out.append("") }
            } else {
                out.append(text)
            }
        }
        while out.last?.isEmpty == true { out.removeLast() }
        return out
    }

    /// `text` split at any line break (CRLF, CR, LF, and Unicode's), control characters but tabs dropped.
    static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            String(String.UnicodeScalarView(line.unicodeScalars.filter { $0 == "\t" || ($0.value >= 0x20 && !(0x7f...0x9f).contains($0.value)) }))
        }
    }
}
