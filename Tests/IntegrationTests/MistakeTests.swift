import Foundation
import Testing
import Failures

/// The mistakes of issue 42 part 6, made through the command line as a person makes them: each is
/// refused with its status before anything changes, or (`recorder kiosk --audio`) taken as
/// documented; an export hands out no capability and no path of this machine.
@Suite struct MistakeTests {
    /// A mistyped `--store-dir` fails the post before it is queued (exit 73, cannotWrite), the
    /// shot stays the current one and posts to the right directory; `recorder feed` on a missing
    /// directory is an error too, not an empty feed.
    @Test func aMissingStoreDirectoryIsRefusedBeforeAnythingIsQueued() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        try box.shoot(seconds: 0.5)
        let typo = "\(box.root)/data/recorder/stroe"
        let refused = try box.recorder(["post", "--caption", "x", "--store-dir", typo])
        #expect(refused.status == 73, "exit \(refused.status): \(refused.stderr)")
        #expect(refused.stderr.contains(typo), "the directory is named: \(refused.stderr)")
        let queue = (try? FileManager.default.contentsOfDirectory(atPath: "\(box.outbox)/queue")) ?? []
        #expect(queue.isEmpty, "nothing is queued for the missing directory: \(queue)")
        #expect(!FileManager.default.fileExists(atPath: typo), "the directory is not made")
        // The shot was not spent: it posts to the store that exists.
        try FileManager.default.createDirectory(atPath: box.localStore, withIntermediateDirectories: true)
        let posted = try box.recorder(["post", "--caption", "x", "--store-dir", box.localStore])
        #expect(posted.status == 0, "exit \(posted.status): \(posted.stderr)")

        // A failure, not an empty feed.
        let feed = try box.recorder(["feed", "--store-dir", typo, "--json"])
        #expect(failed(feed) == Failed(73, "cannotWrite", "FeedFailure.cannotList"), "\(feed.stdout)\(feed.stderr)")
        // An existing store without posts is another answer: none there (66, the store named), as
        // an export or a reel finding none says (issue 49), not the missing store's 73.
        let empty = "\(box.root)/empty-store"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try box.recorder(["feed", "--store-dir", empty, "--json"])
        #expect(failed(none) == Failed(66, "notFound", "CLIFailure.noPosts") && failureData(none)["store"] as? String == empty, "\(none.stdout)")
    }

    /// `recorder kiosk --audio` is documented (configuration.md) and taken: with --end-sessions the
    /// kiosk reads its settings and exits at once.
    @Test func theKioskTakesAudio() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["kiosk", "--audio", "none", "--end-sessions", "--set", "kiosk.state_dir=\(box.root)/state/kiosk"])
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
    }

    /// A key one typo away from a known one is named with it; a key like none is not.
    @Test func anUnknownKeyGetsTheKeyItMeant() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let file = "\(box.root)/recorder.conf"
        try Data("s3.bukket = x\nzzz.qqq = 1\n".utf8).write(to: URL(fileURLWithPath: file))
        let result = try box.recorder(["config", "check", "--config", file])
        #expect(result.status == 78, "exit \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.contains("\(file):1") == true && lines.first?.contains("Did you mean 's3.bucket'?") == true, "\(result.stderr)")
        #expect(lines.count == 2 && lines.last?.contains("Did you mean") == false, "\(result.stderr)")
    }

    /// `--overlay` at a directory says it is a directory (66), not that it cannot be read.
    @Test func anOverlayThatIsADirectorySaysSo() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--overlay", box.root, "--json"])
        #expect(failed(result) == Failed(66, "notFound", "ShotFailure.overlayIsDirectory"), "\(result.stderr)")
    }

    /// An export's post.json holds no share token or share link (the capability to open and delete
    /// the post) and no path of this machine: its addresses are the export's own files.
    @Test func anExportHoldsNoCapabilityAndNoPath() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        try box.shoot(seconds: 0.5)
        let posted = try box.recorder(["post", "--caption", "x", "--json"])
        try #require(posted.status == 0, "exit \(posted.status): \(posted.stderr)")
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String, "\(posted.stdout)")
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/posts/\(id).json"))) as? [String: Any]
        #expect(stored?["shareToken"] is String, "the store's document has its token (what the export must leave out)")
        let out = "\(box.root)/event"
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let result = try box.recorder(["export", "--since", today, "-o", out])
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        let text = try String(contentsOfFile: "\(out)/\(id)/post.json", encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(json["shareToken"] == nil && json["shareURL"] == nil && json["shareExpiresAt"] == nil, "\(text)")
        #expect(!text.contains(box.root) && !text.contains("file:"), "\(text)")
        #expect(json["url"] as? String == "\(id).mp4" && json["thumbnailURL"] as? String == "poster.jpg", "\(text)")
        #expect(json["sha256"] as? String == String(try Tools.run("sha256sum", ["\(out)/\(id)/\(id).mp4"]).stdout.prefix(64)))
    }
}
