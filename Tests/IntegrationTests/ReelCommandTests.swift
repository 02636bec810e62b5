import Foundation
import Testing
import Failures

/// `recorder reel`: the event's posts in one MP4, read back by ffprobe and ffmpeg (independent
/// readers): its length is the posts' and the cards', its sound continuous and at the asked
/// loudness (ffmpeg's own ebur128), each post's sound at it too; a damaged post is named and left
/// out; the choice by question and hidden posts; nothing is overwritten.
@Suite struct ReelCommandTests {
    /// A post of `file` (an MP4 made by ffmpeg) or of the test pattern with its beep; its id.
    private func post(_ box: PostSandbox, _ caption: String, file: String? = nil) throws -> String {
        let shot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "2", "--size", "320x240", "--audio", file == nil ? "beep" : "none"])
        try #require(shot.status == 0, "\(shot.stderr)")
        if let file {
            // (the shot's own file replaced: the post reads and hashes what is there)
            try FileManager.default.removeItem(atPath: box.currentVideo)
            try FileManager.default.copyItem(atPath: file, toPath: box.currentVideo)
        }
        let posted = try box.recorder(["post", "--caption", caption, "--json"])
        try #require(posted.status == 0, "post: \(posted.stderr)")
        return try #require(try jsonObject(posted.stdout)["id"] as? String, "\(posted.stderr)")
    }

    private func jsonFile(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any], "\(path)")
    }

    private func ffmpeg(_ arguments: [String]) throws {
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        try #require(made.status == 0, "ffmpeg \(arguments): \(made.stderr)")
    }

    /// Integrated loudness (LUFS) of `path`'s sound from `start` for `length` seconds, by ffmpeg.
    private func loudness(_ path: String, start: Double? = nil, length: Double? = nil) throws -> Double {
        let trim = start.map { "atrim=start=\($0):duration=\(length ?? 1),asetpts=PTS-STARTPTS," } ?? ""
        let result = try Tools.run("ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-af", trim + "ebur128", "-f", "null", "-"])
        let summary = try #require(result.stderr.components(separatedBy: "Summary:").last)
        let line = try #require(summary.split(separator: "\n").first { $0.contains(" I:") }, "\(result.stderr.suffix(400))")
        return try #require(Double(line.split(separator: " ").dropFirst().first ?? ""), "\(line)")
    }


    /// The luma of one picture at `seconds`, a row of `width` pixels at a time.
    private func luma(_ path: String, at seconds: Double, width: Int) throws -> [[UInt8]] {
        let out = "\(path).gray"
        try ffmpeg(["-ss", "\(seconds)", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", out])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        return stride(from: 0, to: bytes.count, by: width).map { Array(bytes[$0 ..< min($0 + width, bytes.count)]) }
    }

    @Test func aReelOfThePostsAtOneLoudnessReadByFFmpeg() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        // Every character the filter-graph language gives a meaning to, in the cache's path (the
        // clips are read from there) and the reel's (its cards' texts are written beside it).
        let odd = "\(box.root)/odd: [dir], it's; here"
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        box.extraEnvironment["XDG_CACHE_HOME"] = "\(odd)/cache"
        let quietFile = "\(box.root)/quiet.mp4", loudFile = "\(box.root)/loud.mp4", muteFile = "\(box.root)/mute.mp4"
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=3", "-f", "lavfi", "-i", "sine=f=440:d=3,volume=-20dB",
                    "-c:v", "libx264", "-c:a", "aac", "-shortest", quietFile])
        // Portrait, loud: bars either side in a 16:9 reel.
        try ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=360x640:r=30:d=2.5", "-f", "lavfi", "-i", "sine=f=880:d=2.5,volume=10dB",
                    "-c:v", "libx264", "-c:a", "aac", "-shortest", loudFile])
        try ffmpeg(["-f", "lavfi", "-i", "smptebars=s=320x240:r=30:d=2", "-c:v", "libx264", muteFile])
        let quiet = try post(box, "A quiet one: 'colon: [x], %{pts}' ✨", file: quietFile)
        let beep = try post(box, "The booth's own beep, with a caption long enough that it must be wrapped over more than one line")
        let loud = try post(box, "Loud and upright", file: loudFile)
        let mute = try post(box, "مرحبا بالجميع — no sound", file: muteFile)
        let damaged = try post(box, "damaged in the store")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/videos/\(damaged).mp4")))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: "\(box.localStore)/videos/\(damaged).mp4"))

        let reel = "\(odd)/reel.mp4"
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let result = try box.recorder(["reel", "--since", today, "-o", reel, "--size", "640x360", "--fps", "30", "--card-seconds", "1", "--json"])
        #expect(result.status == 65, "exit \(result.status): \(result.stderr)")
        let report = try jsonObject(result.stdout)
        #expect((report["skipped"] as? [String: Any]).map { Set($0.keys) } == [damaged], "\(report)")
        let parts = try #require(report["posts"] as? [[String: Any]], "\(report)")
        let ids = parts.compactMap { $0["id"] as? String }
        #expect(Set(ids) == [quiet, beep, loud, mute], "\(ids)")
        // Oldest first, as the store's metadata dates them.
        let created = try ids.map { id in
            try #require(try jsonFile("\(box.localStore)/posts/\(id).json")["createdAt"] as? String)
        }
        #expect(created == created.sorted(), "\(created)")

        // ffprobe: one picture size, and the length of the posts (as ffprobe reads them) and four
        // one-second cards, within a frame.
        let probe = try Probe(reel)
        #expect(probe.codec == "h264" && probe.width == 640 && probe.height == 360, "\(probe)")
        let expected = try [quiet, beep, loud, mute].reduce(4.0) { $0 + (try Tools.streamDurations("\(box.localStore)/videos/\($1).mp4").video) }
        let streams = try Tools.streamDurations(reel)
        #expect(abs(streams.video - expected) <= 1.0 / 30 + 0.001, "reel \(streams.video) s, parts \(expected) s")
        // The sound runs the whole way: as long as the pictures (within an AAC frame).
        let audio = try #require(streams.audio, "no sound stream")
        #expect(abs(audio - streams.video) <= 0.03, "sound \(audio) s, pictures \(streams.video) s")
        #expect(try Probe.decodesCleanly(reel))

        // ffmpeg's ebur128: the reel at -16 LUFS, and each post with sound at it too, though
        // they were recorded about 30 LU apart.
        let whole = try loudness(reel)
        #expect(abs(whole - -16) <= 1, "the reel measures \(whole) LUFS")
        #expect(try loudness(quietFile) < -35 && loudness(loudFile) > -15, "the posts were not far apart")
        var start = 0.0
        for part in parts {
            let id = part["id"] as? String ?? ""
            let seconds = part["seconds"] as? Double ?? 0
            start += 1
            if id != mute {
                let measured = try loudness(reel, start: start, length: seconds)
                #expect(abs(measured - -16) <= 1, "post \(id) measures \(measured) LUFS in the reel")
            }
            if id == quiet || id == loud {
                // A steady tone: no gap anywhere in it.
                let gaps = try Tools.run("ffmpeg", ["-hide_banner", "-nostats", "-i", reel, "-af",
                                                    "atrim=start=\(start + 0.05):duration=\(seconds - 0.1),silencedetect=n=-50dB:d=0.005", "-f", "null", "-"])
                #expect(!gaps.stderr.contains("silence_start"), "post \(id) has a gap: \(gaps.stderr.suffix(300))")
            }
            if id == loud {
                // Upright in a 16:9 reel: black bars either side, the white picture in the middle.
                let rows = try luma(reel, at: start + seconds / 2, width: 640)
                #expect(rows[180][20] < 30 && rows[180][620] < 30 && rows[180][320] > 200, "\(rows[180][20]) \(rows[180][320]) \(rows[180][620])")
            }
            if id == mute {
                let silence = try loudness(reel, start: start + 0.1, length: seconds - 0.2)
                #expect(silence <= -69, "the post without sound is silence in the reel: \(silence) LUFS")
            }
            start += seconds
        }
        // A title card: a dark picture with light text in its middle band.
        let card = try luma(reel, at: 0.5, width: 640)
        let middle = card[150 ..< 210].flatMap { $0 }
        #expect(card[20].allSatisfy { $0 < 60 } && middle.contains { $0 > 180 }, "the first card")
        #expect(try FileManager.default.contentsOfDirectory(atPath: odd).allSatisfy { !$0.contains(".partial-") })

        // Nothing is overwritten: the same name again is refused, the reel left as it was.
        let before = try sha256(of: reel)
        let again = try box.recorder(["reel", "--since", today, "-o", reel, "--json"])
        #expect(failed(again) == Failed(73, "cannotWrite", "ReelFailure.targetExists"), "\(again.stderr)")
        #expect(try sha256(of: reel) == before)
    }

    /// The guests' emoji on their cards, read on the decoded frames (issue 49: "Congratulations
    /// Anna & Ben! 🎉" lost its 🎉, "😂 ❤️" became "❤"): two cards the same but for their emoji
    /// (the same time on both) differ where the words are, so each emoji was drawn, and not as
    /// the one empty box a font without it gives every emoji.
    @Test func theCardsDrawTheGuestsEmoji() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let party = try post(box, "🎉")
        let laughing = try post(box, "😂")
        for id in [party, laughing] {
            let path = "\(box.localStore)/posts/\(id).json"
            var metadata = try jsonFile(path)
            metadata["createdAt"] = "2026-11-28T21:04:00Z"
            try JSONSerialization.data(withJSONObject: metadata).write(to: URL(fileURLWithPath: path))
        }
        let reel = "\(box.root)/emoji.mp4"
        let result = try box.recorder(["reel", "--since", "2026-11-28", "-o", reel, "--size", "640x360", "--fps", "10", "--card-seconds", "1", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let parts = try #require(try jsonObject(result.stdout)["posts"] as? [[String: Any]], "\(result.stdout)")
        try #require(parts.count == 2)
        // Each card's middle picture: the first at 0.5 s, the second after the first post.
        let first = try luma(reel, at: 0.5, width: 640)
        let second = try luma(reel, at: 1.5 + (parts[0]["seconds"] as? Double ?? 0), width: 640)
        func bright(_ rows: [[UInt8]]) -> Int { rows[100 ..< 260].reduce(0) { $0 + $1.count { $0 > 128 } } }
        #expect(bright(first) > 200 && bright(second) > 200, "no text on the cards: \(bright(first)), \(bright(second))")
        var differing = 0
        for (a, b) in zip(first[100 ..< 260], second[100 ..< 260]) { differing += zip(a, b).count { abs(Int($0) - Int($1)) > 96 } }
        #expect(differing > 150, "the cards of 🎉 and 😂 are the same: \(differing) pixels differ")
    }

    /// An event's posts can be more than the video cache holds: the posts checked first make room
    /// for the later ones, and are fetched (and checked) again when their turn comes.
    @Test func moreThanTheCacheHolds() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        var ids: [String] = []
        for i in 0..<3 {
            // About 600 KB each (noise at 2.5 Mbit/s): two do not fit in a 1 MiB cache.
            let file = "\(box.root)/noise-\(i).mp4"
            try ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=320x240:r=30:d=2,geq=lum='random(1)*255':cb=128:cr=128", "-f", "lavfi", "-i", "sine=f=500:d=2",
                        "-c:v", "libx264", "-b:v", "2500k", "-c:a", "aac", "-shortest", file])
            ids.append(try post(box, "noisy guest \(i)", file: file))
        }
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let result = try box.recorder(["reel", "--since", today, "-o", "\(box.root)/reel.mp4", "--card-seconds", "0.5", "--set", "cache.max_mib=1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = (try? jsonObject(result.stdout))?["posts"] as? [[String: Any]] ?? []
        #expect(Set(parts.compactMap { $0["id"] as? String }) == Set(ids), "\(result.stdout)")
        #expect(abs(try Probe("\(box.root)/reel.mp4").duration - 7.5) < 0.05)
    }

    @Test func choosesByQuestionAndHiddenAndSaysWhenThereIsNothing() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let answered = try post(box, "answered the question")
        let hidden = try post(box, "hidden by the operator")
        let plain = try post(box, "no question")
        // The question, as a kiosk with kiosk.prompts stores it in the post's metadata.
        let metadataPath = "\(box.localStore)/posts/\(answered).json"
        var metadata = try jsonFile(metadataPath)
        metadata["prompt"] = "What do you wish the couple?"
        try JSONSerialization.data(withJSONObject: metadata).write(to: URL(fileURLWithPath: metadataPath))
        // Hidden as the kiosk's operator page hides a post: its index object moved to feed-hidden/.
        let feed = "\(box.localStore)/feed"
        let key = try #require(try FileManager.default.contentsOfDirectory(atPath: feed).first { $0.contains(hidden) })
        try FileManager.default.createDirectory(atPath: "\(box.localStore)/feed-hidden", withIntermediateDirectories: true)
        var record = try jsonFile("\(feed)/\(key)")
        record["hidden"] = true
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: "\(box.localStore)/feed-hidden/\(key)"))
        try FileManager.default.removeItem(atPath: "\(feed)/\(key)")

        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        func reel(_ name: String, _ extra: [String]) throws -> (Int32, [String], String) {
            let result = try box.recorder(["reel", "--since", today, "-o", "\(box.root)/\(name).mp4", "--size", "320x240", "--card-seconds", "0.5", "--json"] + extra)
            let ids = ((try? jsonObject(result.stdout))?["posts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            return (result.status, ids, result.stderr)
        }
        let byQuestion = try reel("question", ["--prompt", "  what do you wish the COUPLE? "])
        #expect(byQuestion.0 == 0 && byQuestion.1 == [answered], "\(byQuestion)")
        let visible = try reel("visible", [])
        #expect(visible.0 == 0 && Set(visible.1) == [answered, plain], "\(visible)")
        let all = try reel("all", ["--hidden", "yes"])
        #expect(all.0 == 0 && Set(all.1) == [answered, plain, hidden], "\(all)")
        #expect(try Probe("\(box.root)/all.mp4").codec == "h264")
        // Fades through the cards' colour: the same length, a post's first picture dark, its middle not.
        let faded = try reel("faded", ["--fade", "0.5"])
        #expect(faded.0 == 0 && Set(faded.1) == [answered, plain], "\(faded)")
        #expect(abs(try Probe("\(box.root)/faded.mp4").duration - Probe("\(box.root)/visible.mp4").duration) < 0.01)
        func meanLuma(_ file: String, _ at: Double) throws -> Int {
            let out = "\(file).gray"
            let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-ss", "\(at)", "-i", file, "-frames:v", "1", "-vf", "scale=32:24", "-f", "rawvideo", "-pix_fmt", "gray", out])
            try #require(made.status == 0, "\(made.stderr)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
            return bytes.reduce(0) { $0 + Int($1) } / max(bytes.count, 1)
        }
        // (cards of 0.5 s, then the first post's 2 s)
        let (fadedStart, cutStart) = (try meanLuma("\(box.root)/faded.mp4", 0.52), try meanLuma("\(box.root)/visible.mp4", 0.52))
        let fadedMiddle = try meanLuma("\(box.root)/faded.mp4", 1.5)
        #expect(fadedStart < 40 && cutStart > 60 && fadedMiddle > 60, "faded start \(fadedStart), cut start \(cutStart), faded middle \(fadedMiddle)")
        let badFade = try box.recorder(["reel", "--since", today, "--fade", "3", "-o", "\(box.root)/none.mp4", "--json"])
        #expect(failed(badFade) == Failed(64, "invalidRequest", "ReelFailure.fadeOutOfRange"), "\(badFade.stderr)")

        // Nothing to put in: said, with what to change, and no file made.
        let tomorrow = String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400)).prefix(10))
        let none = try box.recorder(["reel", "--since", tomorrow, "-o", "\(box.root)/none.mp4", "--json"])
        #expect(failed(none) == Failed(66, "notFound", "ReelFailure.nothingToShow"), "\(none.stderr)")
        #expect(failureData(none)["store"] as? String == box.localStore, "\(none.stdout)")
        #expect(!FileManager.default.fileExists(atPath: "\(box.root)/none.mp4"))
        let unanswered = try box.recorder(["reel", "--since", today, "--prompt", "Nobody was asked this", "-o", "\(box.root)/none.mp4", "--json"])
        #expect(failed(unanswered) == Failed(66, "notFound", "ReelFailure.nothingToShow"), "\(unanswered.stderr)")
        let tooLoud = try box.recorder(["reel", "--since", today, "--loudness", "-2", "-o", "\(box.root)/none.mp4", "--json"])
        #expect(failed(tooLoud) == Failed(64, "invalidRequest", "ReelFailure.loudnessOutOfRange"), "\(tooLoud.stderr)")
        let badHidden = try box.recorder(["reel", "--since", today, "--hidden", "maybe"])
        #expect(badHidden.status == 64, "\(badHidden.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(box.root)/none.mp4"))
    }

    /// Shots are levelled as they are made (`audio.loudness`, the default): the reel, which
    /// brings every post to its own target with one gain, leaves them where they are (one gain,
    /// no compressor: nothing pumps), and still lifts or lowers a post that was not levelled.
    @Test func postsLevelledAtTheirShotAreNotLevelledAgain() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let levelled = try post(box, "levelled")
        var plain = box
        plain.extraEnvironment["RECORDER_AUDIO_LOUDNESS"] = "off"
        let asRecorded = try post(plain, "as recorded")
        let reel = "\(box.root)/reel.mp4"
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let result = try box.recorder(["reel", "--since", today, "-o", reel, "--size", "320x240", "--fps", "30", "--card-seconds", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = try #require(try jsonObject(result.stdout)["posts"] as? [[String: Any]], "\(result.stdout)")
        let gains = Dictionary(uniqueKeysWithValues: parts.compactMap { part in (part["id"] as? String).map { ($0, part["gain"] as? Double ?? .nan) } })
        #expect(abs(gains[levelled] ?? .nan) <= 0.5, "the levelled post was given \(String(describing: gains[levelled])) dB")
        #expect(abs(gains[asRecorded] ?? 0) > 0.5, "the post as recorded was given \(String(describing: gains[asRecorded])) dB")
    }
}
