import Foundation
import Testing
import MediaEncoder
@testable import Settings
@testable import Publishing
import VideoCapture
import MediaValues
import Failures

/// The committed corpus in Fixtures/ (see Fixtures/README.md), read back with ffprobe/ffmpeg.
@Suite struct FixtureTests {
    static let fixtures = S3Fixture.repository + "/Fixtures"

    static func fixture(_ name: String) -> String { "\(fixtures)/\(name)" }

    @Test(arguments: ["clip-420", "clip-422", "clip-mono"])
    func y4mClipsRecordFrameForFrame(_ name: String) throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let source = Self.fixture("y4m/\(name).y4m")
        let result = try ShootCommandTests.shoot(ws, ["--device", "y4m:\(source)", "--seconds", "60", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let video = ShootCommandTests.currentVideo(ws)
        let probe = try Probe(video)
        #expect(probe.frames == 15 && probe.width == 160 && probe.height == 120)
        #expect(try EncodeFormatsTests.psnr(video, lumaOnly: name == "clip-mono", source: source, frames: 15) > 30)
    }

    @Test(arguments: [("broken/no-size.y4m", 65, "W"), ("broken/unsupported-444.y4m", 64, "444"),
                      ("broken/truncated-frame.y4m", 65, "frame")])
    func brokenY4MIsRefusedClearlyAndKeepsThePreviousShot(_ name: String, _ status: Int32, _ says: String) throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        #expect(try ShootCommandTests.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"]).status == 0)
        let previous = try ShootCommandTests.currentID(ws)
        let result = try ShootCommandTests.shoot(ws, ["--device", "y4m:\(Self.fixture(name))", "--seconds", "5"])
        if name.contains("truncated") {
            // Two whole frames, then a short one: what was whole is kept, the cut is reported.
            #expect(result.status == 0 || result.status == status, "\(result.status) \(result.stderr)")
            if result.status == 0 { #expect(try Probe(ShootCommandTests.currentVideo(ws)).frames == 2) }
        } else {
            #expect(result.status == status, "\(result.status) \(result.stderr)")
            #expect(result.stderr.contains(says), "\(result.stderr)")
            #expect(try ShootCommandTests.currentID(ws) == previous)
        }
    }

    @Test func uvcMJPEGWithoutHuffmanTablesDecodes() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = CaptureFormat(pixelFormat: .mjpeg, width: 320, height: 240, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings())
        let names = (1...10).map { String(format: "mjpeg/uvc-%02d.jpg", $0) } + ["mjpeg/frame-01.jpg"]
        for (i, name) in names.enumerated() {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixture(name)))
            #expect(!data.contains(0xC4) || name.hasPrefix("mjpeg/frame") || data.firstRange(of: Data([0xFF, 0xC4])) == nil,
                    "\(name) should have no DHT segment")
            try data.withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(i) * 66_667, sequence: UInt64(i)))
            }
        }
        let summary = try recorder.finish()
        #expect(summary.framesWritten == 11 && summary.framesDropped == 0)
        let probe = try Probe("\(dir)/out.mp4")
        #expect(probe.frames == 11 && probe.width == 320)
        // The DHT-less first frame and the one with tables are the same picture.
        let first = try EncodeFormatsTests.psnr("\(dir)/out.mp4", lumaOnly: true, source: Self.fixture("mjpeg/uvc-01.jpg"), frames: 1)
        #expect(first > 30)
    }

    @Test func h264FromACameraIsCopiedAccessUnitByAccessUnit() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("h264/camera.h264"))))
        // One buffer per access unit, split at the access unit delimiters (NAL type 9).
        var starts: [Int] = []
        var i = 0
        while i + 4 < stream.count {
            if stream[i] == 0, stream[i + 1] == 0, stream[i + 2] == 1, stream[i + 3] & 0x1F == 9 {
                starts.append(i > 0 && stream[i - 1] == 0 ? i - 1 : i)
            }
            i += 1
        }
        #expect(starts.count == 30)
        let input = CaptureFormat(pixelFormat: .h264, width: 320, height: 240, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings())
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : stream.count
            try stream[start..<end].withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(n) * 66_667, sequence: UInt64(n)))
            }
        }
        let summary = try recorder.finish()
        #expect(summary.encoder == "copy" && summary.framesWritten == 30 && summary.framesSkipped == 0)
        let probe = try Probe("\(dir)/out.mp4")
        #expect(probe.frames == 30 && probe.codec == "h264" && probe.width == 320)
        #expect(try Probe.decodesCleanly("\(dir)/out.mp4"))
        // Copied, not re-encoded: the pictures are the camera's, bit for bit.
        let ours = try Tools.run("ffmpeg", ["-v", "error", "-i", "\(dir)/out.mp4", "-f", "framemd5", "-"])
        let camera = try Tools.run("ffmpeg", ["-v", "error", "-i", Self.fixture("h264/camera.h264"), "-f", "framemd5", "-"])
        let hashes = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",").last ?? "" } }
        #expect(hashes(ours.stdout) == hashes(camera.stdout))
    }

    @Test func aFileCutOffByKillMinus9IsRecoveredAndAFakeOneIsRemoved() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        #expect(try ShootCommandTests.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"]).status == 0)
        // An interrupted recording newer than the current shot, as a power cut leaves it.
        let draft = "\(ws)/.incoming-\(String(format: "%010d", Int(Date().timeIntervalSince1970) + 5))-000000000-1"
        try FileManager.default.createDirectory(atPath: draft, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture("mp4/killed.mp4"), toPath: "\(draft)/recording.mp4")
        let recovered = try ShootCommandTests.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        // Kept beside the shot that was asked for, which is current.
        let keptVideo = "\(ws)/kept/\(draft.split(separator: "/").last!.dropFirst(".incoming-".count))/video.mp4"
        #expect(FileManager.default.fileExists(atPath: keptVideo), "not recovered: \(recovered.stderr)")
        let probe = try Probe(keptVideo)
        #expect(probe.width == 320 && probe.duration > 2.5, "\(probe.duration)")
        #expect(try Probe.decodesCleanly(keptVideo))
        #expect(try Probe(ShootCommandTests.currentVideo(ws)).width == 160)

        // Text named recording.mp4: not recoverable, removed, said so; the shot goes ahead.
        let fake = "\(ws)/.incoming-\(String(format: "%010d", Int(Date().timeIntervalSince1970) + 10))-000000000-2"
        try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture("broken/not-really.mp4"), toPath: "\(fake)/recording.mp4")
        let next = try ShootCommandTests.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Probe(ShootCommandTests.currentVideo(ws)).width == 160)
        let fakeID = fake.split(separator: "/").last!.dropFirst(".incoming-".count)
        #expect(!FileManager.default.fileExists(atPath: fake) && !FileManager.default.fileExists(atPath: "\(ws)/kept/\(fakeID)"))

        // What a power cut in a recording's first second leaves: an empty file, or the header
        // without a fragment. Nothing to recover and nothing to wait for: removed, said so.
        let header = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("mp4/killed.mp4")))
        let moof = try #require(header.firstRange(of: Data("moof".utf8))).lowerBound - 4
        for (n, bytes) in [Data(), header.prefix(moof), header.prefix(moof + 100)].enumerated() {
            let cut = "\(ws)/.incoming-\(String(format: "%010d", Int(Date().timeIntervalSince1970) + 20 + n))-000000000-3"
            try FileManager.default.createDirectory(atPath: cut, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: "\(cut)/recording.mp4"))
            let after = try ShootCommandTests.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
            #expect(after.status == 0, "\(bytes.count) bytes: \(after.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(ws)/kept/\(cut.split(separator: "/").last!.dropFirst(".incoming-".count))"))
            #expect(!FileManager.default.fileExists(atPath: cut) && !FileManager.default.fileExists(atPath: "\(ws)/.interrupted-\(cut.split(separator: "/").last!.dropFirst(".incoming-".count))"))
        }
    }

    /// A recording that cannot be recovered for a reason that passes (FFmpeg damaged: the real
    /// dynamic loader handed a broken libavcodec) is not removed: it waits, the next shoot's cleaning
    /// leaves it, and the first start with FFmpeg back recovers it.
    @Test func aRecordingThatCannotBeRecoveredYetWaitsForTheNextStart() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let current = try box.shoot(seconds: 0.5)
        let workspace = "\(box.root)/run/recorder"
        let id = "\(String(format: "%010d", Int(Date().timeIntervalSince1970) + 5))-000000000-1"
        try FileManager.default.createDirectory(atPath: "\(workspace)/.incoming-\(id)", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture("mp4/killed.mp4"), toPath: "\(workspace)/.incoming-\(id)/recording.mp4")
        let broken = "\(box.root)/broken-lib"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: "\(broken)/libavcodec.so.59"))
        box.extraEnvironment["LD_LIBRARY_PATH"] = broken

        let waiting = "\(workspace)/.interrupted-\(id)/recording.mp4"
        let shoot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.3", "--size", "160x120", "--json"])
        #expect(failed(shoot) == Failed(69, "unavailable", "media"), "\(shoot.stderr)")
        #expect(FileManager.default.fileExists(atPath: waiting), "the shoot's cleaning removed the waiting recording")
        #expect(try sha256(of: box.currentVideo) == current)
        let post = try box.recorder(["post", "--caption", "current", "--json"])
        #expect(post.status == 0, "\(post.stderr)")
        #expect(FileManager.default.fileExists(atPath: waiting))

        box.extraEnvironment["LD_LIBRARY_PATH"] = nil
        let next = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(workspace)/.interrupted-\(id)"))
        let kept = "\(workspace)/kept/\(id)/video.mp4"
        #expect(try Probe(kept).duration > 2.5 && Probe.decodesCleanly(kept))
    }

    /// A recording interrupted before the current shot was made (older id) is kept beside it, not
    /// removed: the next shot goes ahead, `recorder post --shot ID` posts the kept one, and only a
    /// posted kept shot is cleaned away.
    @Test func anInterruptedRecordingOlderThanTheCurrentShotIsKeptUntilPosted() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let current = try box.shoot(seconds: 0.5)
        let workspace = "\(box.root)/run/recorder"
        let id = "\(String(format: "%010d", Int(Date().timeIntervalSince1970) - 600))-000000000-1"
        try FileManager.default.createDirectory(atPath: "\(workspace)/.incoming-\(id)", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture("mp4/killed.mp4"), toPath: "\(workspace)/.incoming-\(id)/recording.mp4")

        // Posting the current shot recovers the old recording beside it and posts the current one.
        let post = try box.recorder(["post", "--caption", "current", "--json"])
        #expect(post.status == 0, "\(post.stderr)")
        let kept = "\(workspace)/kept/\(id)/video.mp4"
        #expect(try Probe(kept).duration > 2.5 && Probe.decodesCleanly(kept))
        let posted = try #require(try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any])
        #expect(posted["keptShots"] as? [String] == [id], "\(post.stdout)")
        #expect(try sha256(of: "\(box.localStore)/videos/\(posted["id"] as? String ?? "").mp4") == current)

        // A new shot replaces the current one, not the kept one, and says it is there.
        let shoot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
        #expect(shoot.status == 0 && shoot.stderr.contains("recorder post --shot \(id)"), "\(shoot.stderr)")
        #expect(FileManager.default.fileExists(atPath: kept))

        let unknown = try box.recorder(["post", "--caption", "x", "--shot", "0000000001-000000000-1"])
        #expect(unknown.status == 66 && unknown.stderr.contains(id), "\(unknown.stderr)")

        let keptSHA = try sha256(of: kept)
        let postKept = try box.recorder(["post", "--caption", "recovered", "--shot", id, "--json"])
        #expect(postKept.status == 0, "\(postKept.stderr)")
        let keptPost = try #require(try JSONSerialization.jsonObject(with: Data(postKept.stdout.utf8)) as? [String: Any])
        let keptID = try #require(keptPost["id"] as? String)
        #expect(try sha256(of: "\(box.localStore)/videos/\(keptID).mp4") == keptSHA)
        let metadata = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/posts/\(keptID).json"))) as? [String: Any])
        #expect((metadata["durationSeconds"] as? Double ?? 0) > 2.5)
        // Posting it twice says where it went; the next shot cleans the posted kept shot away.
        let again = try box.recorder(["post", "--caption", "recovered", "--shot", id])
        #expect(again.status != 0 && again.stderr.contains(keptID), "\(again.stderr)")
        #expect(try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.3", "--size", "160x120"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: "\(workspace)/kept/\(id)"))
    }

    @Test(arguments: [("good.conf", 0, ""), ("bad-unknown-key.conf", 78, "s3.buckett"), ("bad-syntax.conf", 78, ":2:"),
                      ("bad-number.conf", 78, "s3.part_size_mib"), ("bad-backend.conf", 78, "ftp")])
    func configurationFiles(_ name: String, _ status: Int32, _ says: String) throws {
        let box = try PostSandbox()
        defer { box.remove() }
        try box.shoot()
        // (the store good.conf names must exist: a missing one is refused, dry run or not)
        try FileManager.default.createDirectory(atPath: "/tmp/recorder-fixture-store", withIntermediateDirectories: true)
        let result = try box.recorder(["post", "--config", Self.fixture("config/\(name)"), "--caption", "config", "--dry-run", "--json"])
        #expect(result.status == status, "\(result.stderr)")
        if status == 0 {
            let metadata = try #require(try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
            #expect((metadata["author"] as? [String: Any])?["name"] as? String == "Lobby booth")
            #expect((metadata["url"] as? String)?.hasPrefix("file:///tmp/recorder-fixture-store/") == true)
        } else {
            #expect(result.stderr.contains(says), "\(result.stderr)")
        }
    }

    @Test(arguments: [("rtl.txt", 0), ("zwj-emoji.txt", 0), ("combining.txt", 0), ("multiline.txt", 0),
                      ("length-2200.txt", 0), ("length-2201.txt", 65), ("control-bell.txt", 65)])
    func captionCorpus(_ name: String, _ status: Int32) throws {
        let box = try PostSandbox()
        defer { box.remove() }
        try box.shoot()
        let caption = try String(contentsOfFile: Self.fixture("captions/\(name)"), encoding: .utf8)
        let result = try box.recorder(["post", "--caption", caption, "--dry-run", "--json"])
        #expect(result.status == status, "\(result.stderr)")
        guard status == 0 else { return }
        let metadata = try #require(try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let stored = try #require(metadata["caption"] as? String)
        // Kept exactly, code point for code point, but for line ends, which become LF.
        let expected = caption.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        #expect(Array(stored.unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test func aNULInACaptionIsRefused() throws {
        // A NUL cannot travel in argv; it can in the kiosk's JSON, which goes through the same check.
        let caption = try String(contentsOfFile: Self.fixture("captions/control-nul.txt"), encoding: .utf8)
        #expect(caption.unicodeScalars.contains("\u{0}"))
        #expect { try Caption.validate(caption) } throws: { ($0 as? RecorderError) == TextProblem(.caption(source: nil), .controlCharacter(0, line: nil)) }
    }
}
