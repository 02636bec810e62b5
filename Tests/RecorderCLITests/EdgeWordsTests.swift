import Foundation
import KioskService
@testable import RecorderCLI
import Settings
import Testing
import KioskWords
import Failures

/// Each edge's words for every failure case, as a table of case -> exact text kept in
/// `Snapshots/`: a wording change is one reviewed diff there. `RECORDER_UPDATE_SNAPSHOTS=1` writes
/// the tables anew (then read the diff).
@Suite struct EdgeWordsTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots").path

    /// "case: text" lines, in the samples' order.
    static func table(_ samples: [(String, RecorderError)], _ words: (RecorderError) -> String) -> String {
        samples.map { "\($0.0): \(words($0.1))\n" }.joined()
    }

    static func check(_ name: String, _ table: String) throws {
        let path = "\(directory)/\(name)"
        if ProcessInfo.processInfo.environment["RECORDER_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(table.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let kept = try String(contentsOfFile: path, encoding: .utf8)
        let (now, before) = (table.split(separator: "\n", omittingEmptySubsequences: false), kept.split(separator: "\n", omittingEmptySubsequences: false))
        #expect(now.count == before.count, "\(name): \(now.count) lines, the snapshot has \(before.count)")
        for (line, keptLine) in zip(now, before) where line != keptLine {
            Issue.record("\(name) changed:\n- \(keptLine)\n+ \(line)")
        }
    }

    @Test func theOperatorsWords() throws {
        try Self.check("operator-words.txt", Self.table(FailureSamples.all + FailureSamples.commandLine, OperatorWords.text))
    }

    @Test func theCommandLinesWords() throws {
        try Self.check("cli-words.txt", Self.table(FailureSamples.all + FailureSamples.commandLine, CLIWords.text))
    }

    /// A guest's request that came after the guest moved on (409 notCurrentShot), as the operator reads it.
    @Test func theStaleRequestsWords() throws {
        let samples: [(String, StaleRequest)] = [
            ("post", .post(asked: "20261127-041200-ab12", current: "20261127-041300-cd34")),
            ("post, none current", .post(asked: "20261127-041200-ab12", current: nil)),
            ("mail", .mail(post: "k3Jd9QxZ2mPq")),
        ]
        try Self.check("stale-words.txt", samples.map { "\($0.0): \(OperatorWords.text($0.1))\n" }.joined())
    }

    @Test func theGuestsWords() throws {
        try Self.check("guest-words.txt", Self.table(FailureSamples.all) { GuestWording.key(for: $0).rawValue + " = " + GuestWording.sentence(for: $0) })
    }

    /// Every word the guest page is given, in each language, as the page gets it (GuestStrings.json:
    /// a counted string as its plural forms): Tests/pages/guest-words.test.mjs reads this table
    /// through the page's own `wording`, so the page's words at a count of 1 are judged on the
    /// real table.
    @Test func theGuestPagesWords() throws {
        var columns: [String: Any] = [:]
        for language in GuestStrings.languages {
            columns[language] = try JSONSerialization.jsonObject(with: Data(GuestStrings.json(language).utf8))
        }
        let data = try JSONSerialization.data(withJSONObject: columns, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try Self.check("guest-strings.json", String(decoding: data, as: UTF8.self) + "\n")
    }

    /// What `--json` gives scripts of every failure: its `kind`, its case (`failure`) and its data,
    /// as one document per case; a change of shape is one reviewed diff here (and in docs/shoot.md).
    /// Also the data of the cases the documents carry beside a failure (a mail's, a feed entry's
    /// problem, why a cached copy was fetched again).
    @Test func theJSONData() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json(_ data: CaseData) throws -> String { String(decoding: try encoder.encode(data), as: UTF8.self) }
        var table = ""
        for (name, error) in FailureSamples.all + FailureSamples.commandLine {
            table += "\(name): \(try json(error.document))\n"
        }
        for (name, value) in FailureSamples.documented {
            table += "\(name): \(try json(value))\n"
        }
        try Self.check("json-data.txt", table)
    }

    /// The operator of a kiosk has a page and a configuration file, not a shell: no failure's
    /// operator words name a command-line flag or a `recorder` command (issue 18). (The command
    /// line's mail failures quote the mail's own words, which name `recorder outbox mail --retry`.)
    @Test func noFlagReachesTheOperator() {
        let command = /recorder (shoot|post|feed|devices|outbox|kiosk|config|export|reel|fetch|cache|doctor)\b/
        for (name, error) in FailureSamples.all + FailureSamples.commandLine where !name.hasPrefix("CLIMailFailure.") {
            let text = OperatorWords.text(error)
            #expect(!text.contains("--") && text.firstMatch(of: command) == nil, "\(name): \(text)")
        }
    }
}
