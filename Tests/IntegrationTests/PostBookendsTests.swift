import Foundation
import Testing
import Failures

/// `recorder post --intro/--outro`: a picture or clip before and after the guest's take, read
/// back by ffprobe and ffmpeg (independent readers): the take's packets are in the post byte for
/// byte when the formats allow (not encoded again), its sound where it was against its pictures,
/// each part as long as it should be, the intro's picture and the outro's sound where they
/// belong; encoded again when the settings changed; a bad file refused before anything is queued.
@Suite struct PostBookendsTests {
    private func ffmpeg(_ arguments: [String]) throws {
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        try #require(made.status == 0, "ffmpeg \(arguments): \(made.stderr)")
    }

    /// The video packets' SHA-256 hashes, in order, by ffprobe.
    private func pictureHashes(_ path: String) throws -> [String] {
        let result = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_data_hash", "sha256", "-show_packets",
                                               "-show_entries", "packet=data_hash", "-of", "csv=p=0", path])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }


    /// Where each sound (louder than -50 dB) starts, by ffmpeg's silencedetect (not the file's
    /// end, where a silence ends too).
    private func soundStarts(_ path: String) throws -> [Double] {
        let result = try Tools.run("ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-af", "silencedetect=n=-50dB:d=0.05", "-f", "null", "-"])
        let end = try Tools.streamDurations(path).audio ?? 0
        return result.stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "silence_end: ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }.filter { $0 < end - 0.05 }
    }

    /// The average colour (RGB) of the picture at `seconds`, by ffmpeg.
    private func colour(_ path: String, at seconds: Double) throws -> [Int] {
        let out = "\(path).\(seconds).rgb"
        try ffmpeg(["-ss", "\(seconds)", "-i", path, "-frames:v", "1", "-vf", "scale=1:1", "-f", "rawvideo", "-pix_fmt", "rgb24", out])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))).map(Int.init)
    }

    private func posted(_ box: PostSandbox, _ stdout: String) throws -> (video: String, metadata: [String: Any]) {
        let id = try #require(try jsonObject(stdout)["id"] as? String, "\(stdout)")
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/posts/\(id).json"))) as? [String: Any])
        return ("\(box.localStore)/videos/\(id).mp4", metadata)
    }

    @Test func aPictureBeforeAndAClipAfterTheTakeCopiedAsRecorded() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let intro = "\(box.root)/intro.png", outro = "\(box.root)/outro.mp4"
        try ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=640x480", "-frames:v", "1", intro])
        // Another size, rate and sound format than the take: made into the take's.
        try ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=640x360:r=25:d=2", "-f", "lavfi", "-i", "sine=f=880:d=2:sample_rate=44100",
                    "-ac", "2", "-c:v", "libx264", "-c:a", "aac", "-shortest", outro])
        let shot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "2", "--size", "320x240", "--audio", "beep"])
        try #require(shot.status == 0, "\(shot.stderr)")
        let take = "\(box.root)/take.mp4"
        try FileManager.default.copyItem(atPath: box.currentVideo, toPath: take)
        let takeHashes = try pictureHashes(take)
        let takeBeeps = try soundStarts(take)
        try #require(takeHashes.count == 60 && !takeBeeps.isEmpty, "the take: \(takeHashes.count) pictures, beeps at \(takeBeeps)")

        let result = try box.recorder(["post", "--caption", "with bookends", "--intro", intro, "--outro", outro, "--json"])
        try #require(result.status == 0, "post: \(result.stderr)")
        let joined = try jsonObject(result.stdout)["joined"] as? [String: Any]
        #expect(joined?["take"] as? String == "copied" && joined?["intro"] as? String == intro && joined?["outro"] as? String == outro, "\(result.stdout)")
        let (video, metadata) = try posted(box, result.stdout)

        // The take's packets, byte for byte and in order, after the intro's 3 s (90 pictures).
        let hashes = try pictureHashes(video)
        let at = try #require(hashes.firstIndex(of: takeHashes[0]), "the take's first picture is not in the post as recorded")
        #expect(at == 90, "the take starts at picture \(at), not after the intro's 3 s")
        #expect(Array(hashes[at ..< min(at + takeHashes.count, hashes.count)]) == takeHashes, "the take is not in the post as recorded")
        #expect(hashes.count - at - takeHashes.count == 60, "the outro (2 s) is \(hashes.count - at - takeHashes.count) pictures")

        let (pictures, sound) = try Tools.streamDurations(video)
        #expect(abs(pictures - 7) < 1.0 / 30 + 0.001, "the post lasts \(pictures) s, not 3 + 2 + 2")
        #expect(abs((sound ?? 0) - pictures) < 0.03, "its sound lasts \(sound ?? 0) s, its pictures \(pictures) s")
        #expect(abs((metadata["durationSeconds"] as? Double ?? 0) - pictures) < 0.05, "\(metadata)")
        #expect(metadata["byteSize"] as? Int == (try FileManager.default.attributesOfItem(atPath: video)[.size] as? Int))
        #expect(metadata["sha256"] as? String == (try sha256(of: video)))

        // The take's beeps 3 s later to the millisecond: its sound stayed with its pictures. The
        // intro is silent; the outro's tone starts with it.
        let beeps = try soundStarts(video)
        for beep in takeBeeps {
            #expect(beeps.contains { abs($0 - (beep + 3)) < 0.005 }, "the take's beep at \(beep) s is not at \(beep + 3) s in the post: \(beeps)")
        }
        #expect(!beeps.contains { $0 < 2.99 }, "sound during the intro: \(beeps)")
        #expect(beeps.contains { abs($0 - 5) < 0.03 }, "the outro's tone does not start at 5 s: \(beeps)")
        let red = try colour(video, at: 1.5), blue = try colour(video, at: 6)
        #expect(red[0] > 200 && red[1] < 40 && red[2] < 40, "the intro at 1.5 s is \(red), not red")
        #expect(blue[2] > 200 && blue[0] < 40, "the outro at 6 s is \(blue), not blue")

        // The shot's folder keeps no copy: the post has it.
        let folder = (try FileManager.default.destinationOfSymbolicLink(atPath: "\(box.root)/run/recorder/current"))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.hasPrefix("/") ? folder : "\(box.root)/run/recorder/\(folder)")
        #expect(!left.contains { $0.hasSuffix(".mp4") || $0 == ".join" }, "\(left)")
    }

    @Test func encodedAgainWhenTheSettingsChangedSinceTheShot() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let outro = "\(box.root)/outro.jpg"
        try ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=320x240", "-frames:v", "1", outro])
        let shot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "2", "--size", "320x240", "--audio", "beep"])
        try #require(shot.status == 0, "\(shot.stderr)")
        let takeHashes = try pictureHashes(box.currentVideo)
        let takeBeeps = try soundStarts(box.currentVideo)
        // Another crf: libx264's header is not the shot's, so its packets cannot follow the outro's.
        let result = try box.recorder(["post", "--caption", "", "--outro", outro, "--set", "shoot.crf=35", "--set", "post.still_seconds=1.5", "--json"])
        try #require(result.status == 0, "post: \(result.stderr)")
        let joined = try jsonObject(result.stdout)["joined"] as? [String: Any]
        #expect(joined?["take"] as? String == "encoded" && joined?["reencodedBecause"] as? String == "h264HeaderDiffers" && joined?["intro"] == nil, "\(result.stdout)")
        let (video, _) = try posted(box, result.stdout)
        #expect(!(try pictureHashes(video)).contains(takeHashes[1]), "the take was copied, not encoded again")
        let (pictures, sound) = try Tools.streamDurations(video)
        #expect(abs(pictures - 3.5) < 1.0 / 30 + 0.001, "the post lasts \(pictures) s, not 2 + 1.5")
        #expect(abs((sound ?? 0) - pictures) < 0.05, "its sound lasts \(sound ?? 0) s, its pictures \(pictures) s")
        let beeps = try soundStarts(video)
        for beep in takeBeeps {
            #expect(beeps.contains { abs($0 - beep) < 0.034 }, "the take's beep at \(beep) s moved: \(beeps)")
        }
        let blue = try colour(video, at: 3)
        #expect(blue[2] > 200 && blue[0] < 40, "the outro at 3 s is \(blue), not blue")
    }

    @Test func aBadIntroIsRefusedBeforeAnythingIsQueued() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let digest = try box.shoot()
        let text = "\(box.root)/intro.png", long = "\(box.root)/long.mp4", gif = "\(box.root)/intro.gif"
        try "not a picture".write(toFile: text, atomically: true, encoding: .utf8)
        try "GIF89a".write(toFile: gif, atomically: true, encoding: .utf8)
        try ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=64x64:r=5:d=61", "-c:v", "libx264", long])
        let cases: [(arguments: [String], expected: Failed)] = [
            (["--intro", "\(box.root)/missing.png"], Failed(66, "notFound", "BookendFailure.missing")),
            (["--intro", text], Failed(65, "badData", "BookendFailure.notThePicture")),
            (["--outro", gif], Failed(65, "badData", "BookendFailure.unknownType")),
            (["--outro", long], Failed(65, "badData", "BookendFailure.tooLong")),
            (["--intro", box.root], Failed(66, "notFound", "BookendFailure.unreadable")),
            (["--intro", text, "--dry-run"], Failed(65, "badData", "BookendFailure.notThePicture")),
            (["--set", "post.intro=\(text)"], Failed(65, "badData", "BookendFailure.notThePicture")),
        ]
        for (arguments, expected) in cases {
            let result = try box.recorder(["post", "--caption", "x", "--json"] + arguments)
            #expect(failed(result) == expected, "\(arguments): \(result.stderr)")
        }
        let queued = (try? FileManager.default.contentsOfDirectory(atPath: "\(box.outbox)/queue")) ?? []
        #expect(queued.isEmpty, "queued after a refusal: \(queued)")
        #expect(try sha256(of: box.currentVideo) == digest, "the shot was changed")
        // `--intro ""` leaves out a configured one; the shot posts as it is.
        let plain = try box.recorder(["post", "--caption", "x", "--set", "post.intro=\(text)", "--intro", "", "--json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let (video, _) = try posted(box, plain.stdout)
        #expect(try sha256(of: video) == digest)
    }
}
