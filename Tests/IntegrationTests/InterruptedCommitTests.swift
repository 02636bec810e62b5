import Foundation
import Testing
import Failures

/// What a power cut leaves between the steps of a shot's commit or deletion, made by hand (the
/// folders and links exactly as the steps leave them), and what the next start makes of it. The
/// power-cut test in qemu (Tests/vm/power-cut.sh) cuts at random moments and lands here only now
/// and then; it once lost a finished shot this way.
@Suite(.serialized) struct InterruptedCommitTests {
    /// Two shots, A then B, with the workspace as a cut after B's folder was renamed into shots/
    /// and before the `current` link moved: current still names A, and A is still there.
    static func cutBeforeTheLink(_ box: PostSandbox) throws -> (ws: String, a: String, b: String) {
        let ws = "\(box.root)/run/recorder"
        try box.shoot()
        let a = try FileManager.default.destinationOfSymbolicLink(atPath: "\(ws)/current").components(separatedBy: "/").last!
        let saved = "\(box.root)/saved-\(a)"
        try FileManager.default.copyItem(atPath: "\(ws)/shots/\(a)", toPath: saved)
        try box.shoot(seconds: 1.5)
        let b = try FileManager.default.destinationOfSymbolicLink(atPath: "\(ws)/current").components(separatedBy: "/").last!
        try #require(a != b && a < b)
        try FileManager.default.moveItem(atPath: saved, toPath: "\(ws)/shots/\(a)")
        unlink("\(ws)/current")
        try FileManager.default.createSymbolicLink(atPath: "\(ws)/current", withDestinationPath: "shots/\(a)")
        return (ws, a, b)
    }

    /// Also when a second cut came as an earlier start was moving it to kept/ (its shot.json
    /// already naming kept/): the video is where shot.json says, so it posts.
    @Test func aShotFinishedButNotLinkedBecomesCurrentForPost() throws {
        for halfMoved in [false, true] {
            let box = try PostSandbox()
            defer { box.remove() }
            let (ws, a, b) = try Self.cutBeforeTheLink(box)
            let frames = try Probe("\(ws)/shots/\(b)/video.mp4").frames
            if halfMoved {
                let path = "\(ws)/shots/\(b)/shot.json"
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try text.replacingOccurrences(of: "/shots/\(b)/", with: "/kept/\(b)/").write(toFile: path, atomically: true, encoding: .utf8)
            }
            let post = try box.recorder(["post", "--caption", "after the cut"])
            #expect(post.status == 0, "half moved \(halfMoved): \(post.stderr)")
            // B is made the current shot (the link), and posted.
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(ws)/current") == "shots/\(b)", "\(post.stderr)")
            // What was posted is B, whole.
            let videos = try FileManager.default.contentsOfDirectory(atPath: "\(box.localStore)/videos")
            #expect(videos.count == 1, "\(videos)")
            if let video = videos.first { #expect(try Probe("\(box.localStore)/videos/\(video)").frames == frames, "half moved \(halfMoved)") }
            // The next shot replaces B as usual, and A (replaced before the cut) is cleaned away.
            try box.shoot()
            let left = try FileManager.default.contentsOfDirectory(atPath: "\(ws)/shots")
            #expect(left.count == 1 && !left.contains(a) && !left.contains(b), "\(left)")
        }
    }

    @Test func aShotFinishedButNotLinkedIsKeptBesideWhenTheNextShootStarts() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let (ws, a, b) = try Self.cutBeforeTheLink(box)
        let frames = try Probe("\(ws)/shots/\(b)/video.mp4").frames
        let shoot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "160x120", "--json"])
        #expect(shoot.status == 0, "\(shoot.stderr)")
        #expect(try jsonObject(shoot.stdout)["keptShots"] as? [String] == [b], "\(shoot.stdout)")
        // Kept, whole, and its shot.json names where it is now.
        let kept = "\(ws)/kept/\(b)"
        #expect(try Probe("\(kept)/video.mp4").frames == frames)
        #expect(try Probe.decodesCleanly("\(kept)/video.mp4"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(kept)/shot.json"))) as? [String: Any])
        #expect(json["videoPath"] as? String == "\(kept)/video.mp4", "\(json)")
        #expect(try Probe("\(ws)/current/video.mp4").width == 160)
        #expect(!FileManager.default.fileExists(atPath: "\(ws)/shots/\(a)") && !FileManager.default.fileExists(atPath: "\(ws)/shots/\(b)"))
        // And it posts.
        let post = try box.recorder(["post", "--shot", b, "--caption", "kept after the cut"])
        #expect(post.status == 0, "\(post.stderr)")
        #expect(box.queued().isEmpty && (try? FileManager.default.contentsOfDirectory(atPath: "\(box.localStore)/videos"))?.count == 1)
    }

    /// A guest's Delete cut short: the shot is marked first, so whether the cut came before or after
    /// the link went, the next start finishes the deletion and never brings the shot back.
    @Test func aDeletionCutShortIsFinishedNotUndone() throws {
        for linkGone in [false, true] {
            let box = try PostSandbox()
            defer { box.remove() }
            let ws = "\(box.root)/run/recorder"
            try box.shoot()
            let id = try FileManager.default.destinationOfSymbolicLink(atPath: "\(ws)/current").components(separatedBy: "/").last!
            FileManager.default.createFile(atPath: "\(ws)/shots/\(id)/.discarded", contents: Data())
            if linkGone { unlink("\(ws)/current") }
            let post = try box.recorder(["post", "--caption", "must not post a deleted shot", "--dry-run", "--json"])
            #expect(failed(post) == Failed(66, "notFound", "PostFailure.noFinishedShot"), "link gone \(linkGone): \(post.stdout) \(post.stderr)")
            // (the link itself, dangling or not)
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(ws)/current")) == nil, "link gone \(linkGone)")
            let shoot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "160x120"])
            #expect(shoot.status == 0, "link gone \(linkGone): \(shoot.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(ws)/kept"), "link gone \(linkGone): nothing kept beside: \(shoot.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(ws)/shots/\(id)") && !FileManager.default.fileExists(atPath: "\(ws)/kept/\(id)"),
                    "link gone \(linkGone)")
        }
    }
}
