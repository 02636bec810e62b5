import Foundation
import MediaEncoder
import Testing

/// `recorder shoot --effect boomerang|slowmo`: the effect is what the shot plays, its take kept
/// beside it, both read back with ffprobe and ffmpeg (independent readers), picture by picture.
@Suite struct EffectTests {
    /// The decoded pictures of `video` as 8-bit grey, and their size.
    static func greyFrames(_ video: String, in directory: String) throws -> (frames: [Data], width: Int, height: Int) {
        let probe = try Probe(video)
        let raw = directory + "/frames-\(UUID().uuidString).gray"
        let out = try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", video, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        #expect(out.status == 0, "\(out.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        let size = probe.width * probe.height
        return (stride(from: 0, to: bytes.count - size + 1, by: size).map { bytes.subdata(in: $0..<($0 + size)) }, probe.width, probe.height)
    }

    /// PSNR of two grey pictures, in dB (99 for identical ones).
    static func psnr(_ a: Data, _ b: Data) -> Double {
        var sum = 0.0
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in
            for i in 0..<min(x.count, y.count) {
                let d = Double(x[i]) - Double(y[i])
                sum += d * d
            }
        } }
        let mse = sum / Double(max(a.count, 1))
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The RGB of pixel (x, y) of every picture of `video`, as ffmpeg decodes it.
    static func pixels(_ video: String, x: Int, y: Int, width: Int, height: Int, in directory: String) throws -> [[Int]] {
        let raw = directory + "/rgb-\(UUID().uuidString).rgb"
        let out = try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", video, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        #expect(out.status == 0, "\(out.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let size = width * height * 3
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            let at = start + (y * width + x) * 3
            return [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])]
        }
    }

    static func shot(_ result: Tools.Output) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    @Test func aBoomerangPlaysForwardThenBackLoopedToThreeSecondsWithItsFrameOnEveryPicture() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        // A green frame 24 px wide all round: its colour must be on every picture, the right way round.
        let frame = box.root + "/frame.png"
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=640x360", "-frames:v", "1", "-vf",
                                            "format=rgba,geq=r='20':g='200':b='40':a='if(lt(X,24)+gt(X,615)+lt(Y,24)+gt(Y,335),255,0)'", frame])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try box.recorder(["shoot", "--device", "testsrc", "--size", "640x360", "--effect", "boomerang", "--seconds", "1.5",
                                       "--overlay", frame, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let shot = try Self.shot(result)
        let effect = shot["effect"] as? [String: Any] ?? [:]
        #expect(effect["name"] as? String == "boomerang" && effect["notRendered"] == nil, "\(effect)")
        let folder = (box.currentVideo as NSString).deletingLastPathComponent
        let take = folder + "/take.mp4"
        // The take, as recorded, beside it.
        let takeFrames = try Probe(take).frames
        #expect(takeFrames >= 40, "the 1.5 s take has \(takeFrames) pictures")
        let video = box.currentVideo
        let durations = try Tools.streamDurations(video)
        #expect(durations.video >= 3.0 && durations.audio == nil, "the boomerang lasts \(durations.video) s, sound \(String(describing: durations.audio))")
        let (frames, width, height) = try Self.greyFrames(video, in: box.root)
        let n = takeFrames - 1
        #expect(frames.count >= 2 * n, "\(frames.count) pictures for a take of \(takeFrames)")
        // Forward then back: picture k is picture 2n-k (within the encoder's loss)...
        var worst = 99.0
        for k in 1..<n { worst = min(worst, Self.psnr(frames[k], frames[2 * n - k])) }
        #expect(worst >= 35, "the worst of picture k against picture 2n-k: \(worst) dB")
        // ...and the pictures do change (the test pattern moves), so the match says something.
        var moving = 99.0
        for k in 1..<(n / 2) { moving = min(moving, Self.psnr(frames[k], frames[k + n / 2])) }
        #expect(moving < 30, "pictures half a take apart are \(moving) dB alike: nothing to reverse")
        // The frame's colour on every picture, at both corners.
        for (x, y) in [(4, 4), (width - 5, height - 5)] {
            let seen = try Self.pixels(video, x: x, y: y, width: width, height: height, in: box.root)
            #expect(seen.count == frames.count)
            let off = seen.enumerated().filter { !OverlayTests.near($0.element, [20, 200, 40], 40) }
            #expect(off.isEmpty, "(\(x), \(y)) is not the frame's green on \(off.count) pictures, e.g. \(off.prefix(3).map { "\($0.offset): \($0.element)" })")
        }
    }

    @Test func aBoomerangIsAtMostLoopSecondsAndItsTakeIsOneToThreeSeconds() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        // 3 s forward and back is 6 s; at most 4.5 s asked: cut there (at least 3 s all the same).
        let long = try box.recorder(["shoot", "--device", "testsrc", "--size", "320x180", "--effect", "boomerang", "--seconds", "3",
                                     "--set", "effect.loop_seconds=4.5", "--json"])
        #expect(long.status == 0, "\(long.stderr)")
        let seconds = try Tools.streamDurations(box.currentVideo).video
        #expect(seconds >= 3 && seconds <= 4.55, "\(seconds) s")
        let refused = try box.recorder(["shoot", "--device", "testsrc", "--effect", "boomerang", "--seconds", "5", "--json"])
        #expect(failed(refused) == Failed(64, "invalidRequest", "ShotFailure.boomerangSecondsOutOfRange"), "\(refused.stdout)")
        #expect(failureData(refused)["value"] as? Double == 5, "\(refused.stdout)")
    }

    @Test func aPostedBoomerangCarriesItsTakeToTheStore() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let shot = try box.recorder(["shoot", "--device", "testsrc", "--size", "320x240", "--effect", "boomerang", "--seconds", "1"])
        #expect(shot.status == 0, "\(shot.stderr)")
        let posted = try box.recorder(["post", "--caption", "both", "--json"])
        #expect(posted.status == 0, "\(posted.stderr)")
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String)
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/posts/\(id).json"))) as? [String: Any] ?? [:]
        let original = (metadata["effect"] as? [String: Any])?["original"] as? [String: Any] ?? [:]
        #expect(original["key"] as? String == "takes/\(id).mp4", "\(metadata)")
        let video = "\(box.localStore)/videos/\(id).mp4", take = "\(box.localStore)/takes/\(id).mp4"
        #expect(try EffectCrashTests.sha256(take) == original["sha256"] as? String)
        #expect(try EffectCrashTests.sha256(video) == metadata["sha256"] as? String)
        let played = try Probe(video), recorded = try Probe(take)
        #expect(played.duration >= 3 && recorded.duration < 1.2, "the post plays \(played.duration) s, its take \(recorded.duration) s")
        #expect(original["byteSize"] as? Int == (try FileManager.default.attributesOfItem(atPath: take)[.size] as? Int))
        // Nothing of the shot is left in the workspace: both went to the outbox and on.
        #expect(!FileManager.default.fileExists(atPath: box.currentVideo))
    }

    /// A Y4M file of `frames` pictures at `rate`, each unlike the others (testsrc2 draws its time).
    static func clip(_ path: String, rate: Int, frames: Int) throws {
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=\(rate)", "-frames:v", "\(frames)",
                                            "-pix_fmt", "yuv420p", path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test func slowMotionShowsEveryRecordedPictureOnceAtThirtyFramesASecond() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let clip = box.root + "/sixty.y4m"
        try Self.clip(clip, rate: 60, frames: 90)
        let result = try box.recorder(["shoot", "--device", "y4m:\(clip)", "--seconds", "10", "--audio", "none", "--effect", "slowmo", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let take = (box.currentVideo as NSString).deletingLastPathComponent + "/take.mp4"
        let recorded = try Probe(take), slowed = try Probe(box.currentVideo)
        #expect(recorded.frames == 90, "the take has \(recorded.frames) of the 90 pictures")
        #expect(slowed.frames == recorded.frames, "slow motion has \(slowed.frames) pictures, the take \(recorded.frames)")
        #expect(abs(slowed.duration - 2 * recorded.duration) < 0.05, "\(slowed.duration) s from a take of \(recorded.duration) s")
        let rate = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate", "-of", "csv=p=0", box.currentVideo])
        #expect(rate.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "30/1", "played at \(rate.stdout)")
        // Every picture distinct: none repeated to fill time, none made up.
        let frames = try Self.greyFrames(box.currentVideo, in: box.root).frames
        let alike = (1..<frames.count).filter { Self.psnr(frames[$0 - 1], frames[$0]) > 45 }
        #expect(frames.count == 90 && alike.isEmpty, "\(frames.count) pictures, \(alike.count) the same as the one before")
        let facts = (try Self.shot(result)["effect"] as? [String: Any])?["slowMotion"] as? [String: Any] ?? [:]
        #expect(facts["factor"] as? Double == 2 && facts["cameraLimited"] as? Bool == false && facts["recordedFrameRate"] as? Double == 60, "\(facts)")
    }

    @Test func slowMotionFromACameraNoFasterThanThirtySaysSoAndFakesNothing() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let clip = box.root + "/thirty.y4m"
        try Self.clip(clip, rate: 30, frames: 45)
        let result = try box.recorder(["shoot", "--device", "y4m:\(clip)", "--seconds", "10", "--audio", "none", "--effect", "slowmo", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let effect = try Self.shot(result)["effect"] as? [String: Any] ?? [:]
        #expect((effect["notRendered"] as? [String: Any])?["cameraTooSlow"] != nil, "\(effect)")
        #expect((effect["slowMotion"] as? [String: Any])?["cameraLimited"] as? Bool == true, "\(effect)")
        let video = try Probe(box.currentVideo)
        #expect(video.frames == 45 && abs(video.duration - 1.5) < 0.05, "\(video.frames) pictures, \(video.duration) s: as recorded")
        let folder = (box.currentVideo as NSString).deletingLastPathComponent
        #expect(!FileManager.default.fileExists(atPath: folder + "/take.mp4"), "no second file: the shot is its take")
        // A 50 fps camera: slowed as far as it allows (5/3), and said to be short of 2x.
        let fifty = box.root + "/fifty.y4m"
        try Self.clip(fifty, rate: 50, frames: 50)
        let slower = try box.recorder(["shoot", "--device", "y4m:\(fifty)", "--seconds", "10", "--audio", "none", "--effect", "slowmo", "--json"])
        let facts = (try Self.shot(slower)["effect"] as? [String: Any])?["slowMotion"] as? [String: Any] ?? [:]
        #expect(facts["cameraLimited"] as? Bool == true && abs((facts["factor"] as? Double ?? 0) - 5.0 / 3) < 0.01, "\(facts)")
        #expect(abs(try Probe(box.currentVideo).duration - 5.0 / 3) < 0.05)
    }
}

/// A kill or a crash while a shot is made into its effect: the take is never lost or half
/// written, and it is what gets posted (`ShotSalvage` puts it back; the effect is dropped).
@Suite struct EffectCrashTests {
    static func sha256(_ path: String) throws -> String {
        let result = try Tools.run("sha256sum", [path])
        return String(result.stdout.prefix(64))
    }

    /// The folder of the shot being made, once a file ending in `suffix` is in it.
    static func waitForFile(_ workspace: String, suffix: String, seconds: Double) -> (folder: String, file: String)? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: workspace)) ?? [] where name.hasPrefix(".incoming-") {
                let folder = "\(workspace)/\(name)"
                if let file = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).first(where: { $0.hasSuffix(suffix) }) {
                    return (folder, file)
                }
            }
            usleep(2_000)
        }
        return nil
    }

    @Test func killMinus9WhileTheBoomerangIsMadeLeavesTheTakeWholeAndPostsIt() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let workspace = "\(box.root)/run/recorder"
        let running = try box.start(["shoot", "--device", "testsrc", "--size", "1280x720", "--effect", "boomerang", "--seconds", "3", "--audio", "none"])
        let found = Self.waitForFile(workspace, suffix: "boomerang.partial.mp4", seconds: 30)
        kill(running.process.processIdentifier, SIGKILL)
        _ = try Tools.finish(running)
        let (folder, _) = try #require(found, "the boomerang was never being made")
        // The take, whole: every picture of the 3 s decodes.
        let take = try Probe("\(folder)/video.mp4")
        #expect(take.frames >= 80 && abs(take.duration - 3) < 0.1, "\(take.frames) pictures, \(take.duration) s")
        #expect(try Tools.run("ffmpeg", ["-v", "error", "-i", "\(folder)/video.mp4", "-f", "null", "-"]).stderr.isEmpty)
        let takeDigest = try Self.sha256("\(folder)/video.mp4")
        // The next command recovers it and posts the take as recorded.
        let posted = try box.recorder(["post", "--caption", "after a kill", "--json"])
        #expect(posted.status == 0, "\(posted.stderr)")
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String)
        let stored = "\(box.localStore)/videos/\(id).mp4"
        #expect(try Self.sha256(stored) == takeDigest, "the post is not the take")
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/posts/\(id).json"))) as? [String: Any] ?? [:]
        #expect(metadata["effect"] == nil, "\(metadata)")
        #expect(!FileManager.default.fileExists(atPath: "\(box.localStore)/takes/\(id).mp4"))
        // Nothing half made is left.
        let leftovers = FileManager.default.enumerator(atPath: workspace)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".partial.mp4") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// The states a stop can leave between the steps of making an effect, made by hand: the take
    /// with its second name only, and the effect in place with the take beside it. Either way the
    /// take is what is recovered and posted, once.
    @Test(arguments: ["linked", "renamed"])
    func aStopBetweenTheStepsOfAnEffectRecoversTheTake(state: String) throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let workspace = "\(box.root)/run/recorder"
        let made = try box.recorder(["shoot", "--device", "testsrc", "--size", "320x240", "--seconds", "1.5", "--audio", "none"])
        #expect(made.status == 0, "\(made.stderr)")
        let shotFolder = try FileManager.default.destinationOfSymbolicLink(atPath: "\(workspace)/current")
        let take = "\(workspace)/\(shotFolder)/video.mp4"
        let takeDigest = try Self.sha256(take)
        // A draft newer than the current shot, as a stop leaves it.
        let draft = "\(workspace)/.incoming-9999999999-000000000-1"
        try FileManager.default.createDirectory(atPath: draft, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: take, toPath: "\(draft)/video.mp4")
        if state == "linked" {
            try FileManager.default.linkItem(atPath: "\(draft)/video.mp4", toPath: "\(draft)/take.mp4")
            try Data("half".utf8).write(to: URL(fileURLWithPath: "\(draft)/boomerang.partial.mp4"))
        } else {
            try FileManager.default.moveItem(atPath: "\(draft)/video.mp4", toPath: "\(draft)/take.mp4")
            let effect = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=3", "-c:v", "libx264", "\(draft)/video.mp4"])
            #expect(effect.status == 0, "\(effect.stderr)")
        }
        let posted = try box.recorder(["post", "--caption", state, "--json"])
        #expect(posted.status == 0, "\(posted.stderr)")
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String)
        #expect(try Self.sha256("\(box.localStore)/videos/\(id).mp4") == takeDigest)
        let leftovers = FileManager.default.enumerator(atPath: workspace)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".partial.mp4") || $0.hasSuffix("take.mp4") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}

/// A boomerang's GIF (the share page's, on request): at most 8 MB for 3 s at 480 wide, read back by ffprobe.
@Suite struct LoopGIFTests {
    @Test(arguments: [0, 12])
    func threeSecondsAt480WideAreAtMostEightMegabytes(noise: Int) throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clip = dir + "/clip.mp4", gif = dir + "/loop.gif"
        // 720p at 30 fps; with noise as a camera's sensor gives it, which a GIF keeps badly.
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=3" + (noise > 0 ? ",noise=alls=\(noise):allf=t" : ""),
                                            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let outcome = try LoopGIF.write(from: clip, to: gif)
        let size = try FileManager.default.attributesOfItem(atPath: gif)[.size] as? Int ?? 0
        #expect(size > 0 && size <= 8 << 20, "\(size) bytes")
        let probe = try Tools.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_name,width,height,nb_read_frames",
                                              "-of", "csv=p=0", gif])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gif,480,270,\(outcome.frames)", "\(probe.stdout)")
        #expect(outcome.frames == 45, "\(outcome.frames) pictures at 15 fps")
    }
}

/// The sounds an effect may have: a chosen sound under a boomerang (`effect.sound`), and slow
/// motion's own stretched at its pitch (`effect.slowmo_sound = keep`), levelled as posted.
@Suite struct EffectSoundTests {
    @Test func aBoomerangPlaysTheChosenSoundFromItsStartToItsEnd() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let sound = box.root + "/whoosh.wav"
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=660:d=10:sample_rate=44100", sound])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try box.recorder(["shoot", "--device", "testsrc", "--size", "320x240", "--effect", "boomerang", "--seconds", "1",
                                       "--set", "effect.sound=\(sound)", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let durations = try Tools.streamDurations(box.currentVideo)
        #expect(durations.video >= 3 && abs((durations.audio ?? 0) - durations.video) < 0.1,
                "pictures \(durations.video) s, sound \(String(describing: durations.audio)) s")
        // A sound file that is not there stops the shot before anything is recorded.
        let missing = try box.recorder(["shoot", "--device", "testsrc", "--effect", "boomerang", "--set", "effect.sound=\(box.root)/none.wav", "--json"])
        #expect(failed(missing) == Failed(66, "notFound", "ShotFailure.effectSoundMissing"), "\(missing.stdout)")
        #expect(failureData(missing)["path"] as? String == "\(box.root)/none.wav")
    }

    @Test func slowMotionKeepsItsSoundStretchedAndLevelled() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["shoot", "--device", "testsrc", "--size", "320x240", "--effect", "slowmo", "--seconds", "2",
                                       "--audio", "beep", "--set", "effect.slowmo_sound=keep", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let durations = try Tools.streamDurations(box.currentVideo)
        #expect(abs(durations.video - 4) < 0.1 && abs((durations.audio ?? 0) - 4) < 0.15, "pictures \(durations.video) s, sound \(String(describing: durations.audio)) s")
        let level = try LoudnessTests.measure(box.currentVideo)
        #expect(abs(level.integrated + 16) <= 1 && level.truePeak <= -1, "\(level)")
        // The beep's pitch kept: its strongest frequency is still about 1 kHz, not half of it.
        let raw = box.root + "/beep.f32"
        let out = try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", box.currentVideo, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
        #expect(out.status == 0, "\(out.stderr)")
        let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Zero crossings over the loudest tenth of a second (inside a stretched 0.2 s beep): twice
        // the frequency a second.
        let window = 4800
        let loudest = stride(from: 0, to: max(samples.count - window, 1), by: 480).max { a, b in
            samples[a..<min(a + window, samples.count)].reduce(0) { $0 + $1 * $1 } < samples[b..<min(b + window, samples.count)].reduce(0) { $0 + $1 * $1 }
        } ?? 0
        let part = samples[loudest..<min(loudest + window, samples.count)]
        let crossings = zip(part, part.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        let hertz = Double(crossings) / 2 / (Double(part.count) / 48_000)
        #expect(abs(hertz - 1000) < 150, "the beep's pitch is \(hertz) Hz")
    }
}
