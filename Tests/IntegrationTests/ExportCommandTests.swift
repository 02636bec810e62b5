import Foundation
import Testing
import Failures

/// `recorder export`: the posts since a day, in a new directory, every file listed in a
/// SHA256SUMS that sha256sum (an independent reader) verifies; a post that cannot be read is
/// named and skipped; nothing is overwritten.
@Suite struct ExportCommandTests {
    @Test func exportsThePostsSinceADayVerifiedBySha256sum() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        var ids: [String] = []
        for caption in ["first 🎉", "second", "third"] {
            #expect(try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
            let posted = try box.recorder(["post", "--caption", caption, "--json"])
            ids.append(try #require(try jsonObject(posted.stdout)["id"] as? String, "\(posted.stderr)"))
        }
        // The second post's video is damaged in the store: named and skipped, the others exported.
        let damaged = "\(box.localStore)/videos/\(ids[1]).mp4"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: damaged)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))

        let out = "\(box.root)/event"
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let result = try box.recorder(["export", "--since", today, "-o", out, "--json"])
        #expect(result.status == 65, "exit \(result.status): \(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect(Set(report["exported"] as? [String] ?? []) == [ids[0], ids[2]], "\(report)")
        #expect((report["skipped"] as? [String: Any]).map { Set($0.keys) } == [ids[1]], "\(report)")

        // Every file is listed, and sha256sum agrees with the listing.
        let check = try Tools.run("sh", ["-c", "cd '\(out)' && sha256sum -c --strict SHA256SUMS"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let listed = try String(contentsOfFile: "\(out)/SHA256SUMS", encoding: .utf8).split(separator: "\n").map { String($0.split(separator: " ").last ?? "") }
        for id in [ids[0], ids[2]] {
            #expect(listed.contains("\(id)/\(id).mp4") && listed.contains("\(id)/post.json") && listed.contains("\(id)/poster.jpg"), "\(listed)")
            // The exported video is the store's, byte for byte, and plays (ffprobe).
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(id)/\(id).mp4")) == Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/videos/\(id).mp4")))
            #expect(try Probe("\(out)/\(id)/\(id).mp4").codec == "h264")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(out)/\(ids[1])"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.root).allSatisfy { !$0.contains(".partial-") })

        // Nothing is overwritten: the same directory again is refused and left as it was.
        let before = try String(contentsOfFile: "\(out)/SHA256SUMS", encoding: .utf8)
        let again = try box.recorder(["export", "--since", today, "-o", out, "--json"])
        #expect(failed(again) == Failed(73, "cannotWrite", "ExportFailure.directoryNotEmpty"), "\(again.stderr)")
        #expect(try String(contentsOfFile: "\(out)/SHA256SUMS", encoding: .utf8) == before)
        // A day after the posts: nothing to export is said, with where it looked, and is no
        // success (issue 49: a store looked for in the wrong place exported "0 post(s)", exit 0).
        let tomorrow = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400)).prefix(10))
        for target in ["\(box.root)/none/", "\(box.root)/none.zip"] {
            let none = try box.recorder(["export", "--since", tomorrow, "-o", target, "--json"])
            #expect(failed(none) == Failed(66, "notFound", "ExportFailure.nothingToExport"), "\(none.stderr)")
            #expect(failureData(none)["store"] as? String == box.localStore, "\(none.stdout)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.root).allSatisfy { !$0.contains(".partial-") })
        // A bad day is a usage error that says what is wanted.
        let bad = try box.recorder(["export", "--since", "yesterday"])
        #expect(bad.status == 64 && bad.stderr.contains("2026-11-24"), "\(bad.stderr)")
    }

    /// The same into a ZIP archive, with the consent texts: unzip and Python's zipfile read it,
    /// sha256sum verifies the listing inside, and a post whose consent text is gone from the store
    /// is named and left out, never exported without it.
    @Test func exportsIntoAZipWithTheConsentTexts() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        var ids: [String] = []
        for caption in ["with consent", "consent text lost", "no consent asked"] {
            #expect(try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
            let posted = try box.recorder(["post", "--caption", caption, "--json"])
            ids.append(try #require(try jsonObject(posted.stdout)["id"] as? String, "\(posted.stderr)"))
        }
        // Two posts as a kiosk with kiosk.consent stores them: the yes in the metadata, the text
        // once under its SHA-256 (here only the first one's text is there).
        let text = "Wir zeigen euer Video auf dieser Feier.\nIhr könnt es später löschen."
        let textFile = "\(box.root)/consent-source.txt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: textFile))
        let sha = String(try Tools.run("sha256sum", [textFile]).stdout.prefix(64))
        let lostSha = String(repeating: "e", count: 64)
        for (id, digest) in [(ids[0], sha), (ids[1], lostSha)] {
            let path = "\(box.localStore)/posts/\(id).json"
            var metadata = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            metadata["consent"] = ["textSha256": digest, "acceptedAt": "2026-11-25T20:00:00Z", "language": "de"]
            try JSONSerialization.data(withJSONObject: metadata).write(to: URL(fileURLWithPath: path))
        }
        try FileManager.default.createDirectory(atPath: "\(box.localStore)/consent", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(box.localStore)/consent/\(sha).txt"))

        let archive = "\(box.root)/event.zip"
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let result = try box.recorder(["export", "--since", today, "-o", archive, "--json"])
        #expect(result.status == 65, "exit \(result.status): \(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect((report["skipped"] as? [String: Any]).map { Set($0.keys) } == [ids[1]], "\(report)")
        #expect(Set(report["exported"] as? [String] ?? []) == [ids[0], ids[2]], "\(report)")
        #expect(report["format"] as? String == "zip")

        // Two readers that are not ours: Info-ZIP's test of every entry, then the files unpacked
        // and checked by sha256sum against the listing inside.
        let tested = try Tools.run("unzip", ["-t", archive])
        #expect(tested.status == 0 && tested.stdout.contains("No errors detected"), "\(tested.stdout)\(tested.stderr)")
        let unpacked = try Tools.run("sh", ["-c", "cd '\(box.root)' && mkdir out && cd out && unzip -q ../event.zip && cd event && sha256sum -c --strict SHA256SUMS"])
        #expect(unpacked.status == 0, "\(unpacked.stdout)\(unpacked.stderr)")
        let top = try FileManager.default.contentsOfDirectory(atPath: "\(box.root)/out")
        #expect(top == ["event"], "one folder, named as the archive: \(top)")
        let folder = "\(box.root)/out/event"
        #expect(try String(contentsOfFile: "\(folder)/\(ids[0])/consent.txt", encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/\(ids[2])/consent.txt"), "no consent was asked for that one")
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/\(ids[1])"), "nothing of the post whose text is lost")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(ids[2])/\(ids[2]).mp4")) == Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/videos/\(ids[2]).mp4")))
        #expect(try Probe("\(folder)/\(ids[0])/\(ids[0]).mp4").codec == "h264")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.root).allSatisfy { !$0.contains(".partial-") })

        // An archive by that name is never written over.
        let before = try Data(contentsOf: URL(fileURLWithPath: archive))
        let again = try box.recorder(["export", "--since", today, "-o", archive, "--json"])
        #expect(failed(again) == Failed(73, "cannotWrite", "ExportFailure.archiveExists"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
    }
}
