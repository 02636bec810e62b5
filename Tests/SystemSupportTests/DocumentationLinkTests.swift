import Foundation
import Testing

/// The documents' links between themselves: every relative link names a file that exists, and a
/// link to a section names a heading that file has (GitHub's anchors). And what the README lists
/// a booth can have each has its section in docs/kiosk.md (issue 49: the README sent the branding
/// frame to docs/kiosk.md, which had nothing on it).
@Suite struct DocumentationLinkTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// README.md, CONTRIBUTING.md and docs/*.md, as paths from the repository.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repository + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md", "CONTRIBUTING.md"] + docs.sorted()
    }

    /// The anchor GitHub gives a heading: lower case, what is not a letter, digit, space, - or _
    /// left out, spaces as -.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    /// The anchors of `document`'s headings (outside code blocks).
    static func anchors(_ document: String) throws -> Set<String> {
        var fenced = false, found: Set<String> = []
        for line in try String(contentsOfFile: repository + "/" + document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, line.hasPrefix("#") else { continue }
            found.insert(anchor(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    /// `document`'s relative links (outside code blocks): (target file from the repository, anchor).
    static func links(_ document: String) throws -> [(file: String, anchor: String?)] {
        let directory = (document as NSString).deletingLastPathComponent
        var fenced = false, found: [(String, String?)] = []
        for line in try String(contentsOfFile: repository + "/" + document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced else { continue }
            for match in line.matches(of: #/\]\(([^()\s]+)\)/#) {
                let target = String(match.output.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let file = path.isEmpty ? document : ((directory.isEmpty ? path : directory + "/" + path) as NSString).standardizingPath
                found.append((file, parts.count > 1 ? String(parts[1]) : nil))
            }
        }
        return found
    }

    @Test func everyLinkReachesAFileAndASection() throws {
        var broken: [String] = []
        var checked = 0
        for document in try Self.documents() {
            for (file, anchor) in try Self.links(document) {
                checked += 1
                guard FileManager.default.fileExists(atPath: Self.repository + "/" + file) else {
                    broken.append("\(document): \(file) does not exist")
                    continue
                }
                if let anchor, file.hasSuffix(".md"), !(try Self.anchors(file)).contains(anchor) {
                    broken.append("\(document): \(file) has no section #\(anchor)")
                }
            }
        }
        #expect(checked > 100, "the links were not read")
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func whatTheReadmeListsForABoothHasItsSectionInTheKioskDocument() throws {
        let sections = try Self.anchors("docs/kiosk.md")
        let linked = Set(try Self.links("README.md").filter { $0.file == "docs/kiosk.md" }.compactMap(\.anchor))
        for subject in ["questions", "consent", "branding-frame", "organisers-commands"] {
            let section = sections.first { $0.contains(subject) }
            #expect(section != nil, "docs/kiosk.md has no section on \(subject)")
            if let section { #expect(linked.contains(section), "the README does not link docs/kiosk.md#\(section)") }
        }
    }
}
