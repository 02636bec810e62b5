import Foundation
import Testing
import Failures

/// `recorder shoot` end to end, as a user runs it, checked with ffprobe/ffmpeg.
@Suite(.serialized) struct ShootCommandTests {
    static func shoot(_ workspace: String, _ args: [String]) throws -> Tools.Output {
        try Tools.run("recorder", ["shoot", "--workspace", workspace] + args)
    }

    static func currentVideo(_ workspace: String) -> String { "\(workspace)/current/video.mp4" }

    static func currentID(_ workspace: String) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "\(workspace)/current")
    }

    @Test func versionIsPrinted() throws {
        let result = try Tools.run("recorder", ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^recorder \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    /// `recorder --help` lists one exit status per line, none wrapped onto the next (it printed
    /// "69 camera" on one line and "unavailable" on another).
    @Test func helpListsOneExitStatusPerLine() throws {
        let help = try Tools.run("recorder", ["--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        let lines = help.stdout.split(separator: "\n").map(String.init)
        for status in ["0", "64", "65", "66", "69", "70", "73", "74", "75", "77", "78", "130"] {
            let matching = lines.filter { $0.hasPrefix("  \(status) ") }
            #expect(matching.count == 1, "status \(status): \(matching)")
        }
        let start = try #require(lines.firstIndex { $0.hasPrefix("Exit statuses") })
        let end = try #require(lines[start...].firstIndex { $0.hasPrefix("USAGE") })
        for line in lines[(start + 1)..<end] where !line.isEmpty {
            #expect(line.range(of: #"^  \d+ +\S"#, options: .regularExpression) != nil, "a wrapped line: '\(line)'")
        }
    }

    /// One JSON style: one compact document per line, sorted keys, no escaped slashes; `[]` for no
    /// devices; a failure with --json is a JSON object on standard output too.
    /// The silent-take guard on the test beep: heard (ffmpeg's volumedetect, an independent reader,
    /// agrees the file has sound well above the silence floor), so the take is ok and nothing is said.
    @Test func theTestBeepIsHeardByTheSilentTakeGuard() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let shot = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "2", "--size", "160x120", "--json"])
        #expect(shot.status == 0, "\(shot.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shot.stdout.utf8)) as? [String: Any])
        let check = try #require((document["audio"] as? [String: Any])?["check"] as? [String: Any], "\(shot.stdout)")
        #expect(check["result"] as? String == "ok", "\(check)")
        let detected = try Tools.run("ffmpeg", ["-hide_banner", "-nostats", "-i", "\(ws)/current/video.mp4", "-map", "0:a:0", "-af", "volumedetect",
                                                "-f", "null", "-"])
        let line = try #require(detected.stderr.split(separator: "\n").first { $0.contains("max_volume:") }, "\(detected.stderr)")
        let volume = try #require(Double(line.split(separator: " ").dropLast().last ?? ""), "\(line)")
        #expect(volume > -45, "\(line)")
        // What the guard measured (the samples before encoding) agrees with ffmpeg (the decoded AAC)
        // within 6 dB: AAC overshoots a few dB at a beep's sharp start (-6 dBFS in, about -1.3 out).
        let loudest = try #require(check["loudestDBFS"] as? Double)
        #expect(abs(loudest - volume) < 6, "guard \(loudest) dBFS, ffmpeg \(volume) dB")
    }

    @Test func jsonOutputsAreOneCompactDocumentAndFailuresAreJSONToo() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let shot = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120", "--json"])
        #expect(shot.status == 0)
        let lines = shot.stdout.split(separator: "\n")
        #expect(lines.count == 1 && !shot.stdout.contains("\\/") && shot.stdout.contains("\"videoPath\":\"/"), "\(shot.stdout)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(shot.stdout.utf8)) as? [String: Any])
        #expect((document["createdAt"] as? String)?.hasSuffix("Z") == true, "\(document["createdAt"] ?? "none")")
        // The top-level keys in the order written (nested objects, like "audio", have their own).
        var written: [String] = [], depth = 0, inString = false, escaped = false, current = ""
        for character in shot.stdout {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false } else { current.append(character) }
                continue
            }
            switch character {
            case "\"": inString = true; current = ""
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case ":" where depth == 1: written.append(current)
            default: break
            }
        }
        #expect(written == document.keys.sorted(), "keys not in sorted order: \(shot.stdout)")
        #expect(document.keys.contains("audio"), "no audio key: \(shot.stdout)")

        let devices = try Tools.run("recorder", ["devices", "--json"], environment: ["RECORDER_CONFIG": ""])
        if !FileManager.default.fileExists(atPath: "/dev/video0") {
            #expect(devices.stdout == "[]\n", "\(devices.stdout)")
        }
        let badOption = try Self.shoot(ws, ["--seconds", "abc", "--json"])
        #expect(badOption.status == 64)
        let usage = try #require(try JSONSerialization.jsonObject(with: Data(badOption.stdout.utf8)) as? [String: Any], "\(badOption.stdout)")
        #expect(usage["exitStatus"] as? Int == 64 && (usage["error"] as? String)?.contains("abc") == true, "\(usage)")
        let noShot = try Tools.run("recorder", ["post", "--caption", "x", "--workspace", ws + "/empty", "--json"],
                                   environment: ["RECORDER_CONFIG": "", "XDG_STATE_HOME": ws + "/state", "XDG_DATA_HOME": ws + "/data"])
        #expect(noShot.status == 66)
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(noShot.stdout.utf8)) as? [String: Any], "\(noShot.stdout)")
        // (judged by its kind and case, which a script reads; the words are for a person)
        #expect(failure["exitStatus"] as? Int == 66 && failure["kind"] as? String == "notFound"
                && failure["failure"] as? String == "PostFailure.noFinishedShot" && (failure["error"] as? String)?.isEmpty == false, "\(failure)")
    }

    @Test func testPatternShotHasTheAskedFramesDurationSizeAndKeyframes() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let result = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "3", "--size", "320x240", "--fps", "15", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try Probe(Self.currentVideo(ws))
        #expect(probe.codec == "h264" && probe.pixelFormat == "yuv420p")
        #expect(probe.width == 320 && probe.height == 240)
        #expect(probe.frames == 45)
        #expect(abs(probe.duration - 3.0) <= 1.0 / 15)
        // A keyframe every second: at 0, 1 and 2 s.
        #expect(probe.keyframeTimes.count == 3)
        for (a, b) in zip(probe.keyframeTimes, probe.keyframeTimes.dropFirst()) { #expect(abs(b - a - 1.0) < 0.01) }
        #expect(try Probe.decodesCleanly(Self.currentVideo(ws)))
        // The JSON summary agrees with the independent reader.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["frames"] as? Int == 45)
        #expect(json["videoPath"] as? String == "\(ws)/shots/\(try Self.currentID(ws).split(separator: "/").last!)/video.mp4")
    }

    @Test func y4mSourceEndsAtTheEndOfTheFile() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "40",
                                 "-pix_fmt", "yuv420p", "\(ws)/in.y4m"])
        let result = try Self.shoot(ws, ["--device", "y4m:\(ws)/in.y4m", "--seconds", "60", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try jsonObject(result.stdout)["endedEarly"] as? String == "end of input", "\(result.stdout)")
        let probe = try Probe(Self.currentVideo(ws))
        #expect(probe.frames == 40)
        #expect(abs(probe.duration - 1.6) <= 1.0 / 25)
        // Frames read straight from the file into the encoder's pictures are the file's frames, in order.
        #expect(try EncodeFormatsTests.psnr(Self.currentVideo(ws), lumaOnly: false, source: "\(ws)/in.y4m", frames: 40) > 30)
    }

    @Test func killMinus9LeavesAPlayablePartialFileAndThePreviousShot() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        #expect(try Self.shoot(ws, ["--device", "testsrc", "--seconds", "1", "--size", "160x120"]).status == 0)
        let previous = try Self.currentID(ws)
        let previousBytes = try Data(contentsOf: URL(fileURLWithPath: Self.currentVideo(ws)))

        let running = try Tools.start("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--seconds", "60",
                                                   "--size", "320x240", "--fps", "15"])
        let partial = Self.waitForDraft(ws, "two one-second fragments") { $0.frames >= 30 }
        kill(running.process.processIdentifier, SIGKILL)
        _ = try Tools.finish(running)
        let path = try #require(partial)
        let probe = try Probe(path)
        #expect(probe.frames >= 30)
        #expect(probe.codec == "h264" && probe.width == 320)
        #expect(try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]).status == 0)
        // The previous shot is untouched.
        #expect(try Self.currentID(ws) == previous)
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.currentVideo(ws))) == previousBytes)

        // The next shoot recovers it (at least 1 s of frames), keeps it beside the current shot,
        // marked as recovered, and still records the shot it was asked for.
        let next = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120", "--json"])
        #expect(next.status == 0, "\(next.stderr)")
        let new = try #require(try? JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any], "\(next.stdout)")
        #expect(new["recovered"] as? Bool != true)
        #expect(try Probe(Self.currentVideo(ws)).width == 160)
        let keptIDs = try FileManager.default.contentsOfDirectory(atPath: "\(ws)/kept")
        let keptID = try #require(keptIDs.first)
        #expect(keptIDs.count == 1, "\(keptIDs)")
        #expect(new["keptShots"] as? [String] == [keptID], "\(next.stdout)")
        let shotJSON = try Data(contentsOf: URL(fileURLWithPath: "\(ws)/kept/\(keptID)/shot.json"))
        #expect((try JSONSerialization.jsonObject(with: shotJSON) as? [String: Any])?["recovered"] as? Bool == true)
        let kept = try Probe("\(ws)/kept/\(keptID)/video.mp4")
        #expect(kept.frames >= 30 && kept.width == 320)
        #expect(try Probe.decodesCleanly("\(ws)/kept/\(keptID)/video.mp4"))
        // With its sound: the cut-off recording and the recovered shot both have the beep, in sync.
        #expect(try SoundTests.audioStream("\(ws)/kept/\(keptID)/video.mp4")["codec_name"] == "aac")
        let offsets = try SoundTests.offsets("\(ws)/kept/\(keptID)/video.mp4")
        #expect(!offsets.isEmpty && offsets.allSatisfy { $0.offset >= SoundTests.earliest && $0.offset <= SoundTests.latest },
                "recovered shot's beeps against its flashes: \(offsets)")
        #expect(!FileManager.default.fileExists(atPath: path))
        // The shot after that records normally and only reminds of the kept one.
        let after = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120", "--json"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try jsonObject(after.stdout)["recovered"] as? Bool != true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(ws)/kept") == [keptID], "nothing else recovered")
        #expect(FileManager.default.fileExists(atPath: "\(ws)/kept/\(keptID)/video.mp4"))
    }

    /// Ctrl-C a moment into a shot must not replace a good shot with a few frames: under
    /// --min-seconds it is discarded, with exit 130, and the previous shot stays current.
    @Test func aShotStoppedUnderTheMinimumIsDiscardedAndThePreviousKept() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        #expect(try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
        let previous = try Self.currentID(ws)
        let previousBytes = try Data(contentsOf: URL(fileURLWithPath: Self.currentVideo(ws)))
        let running = try Tools.start("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--seconds", "60",
                                                   "--size", "320x240", "--fps", "15", "--min-seconds", "10", "--json"])
        // Frames are being recorded once the first fragment is on disk (about a second in).
        let recording = Self.waitForDraft(ws, "a first fragment") { $0.frames > 0 }
        kill(running.process.processIdentifier, SIGINT)
        try #require(recording != nil)
        let result = try Tools.finish(running)
        #expect(failed(result) == Failed(130, "interrupted", "ShotFailure.stoppedUnderMinimum"), "\(result.stderr)")
        #expect(try Self.currentID(ws) == previous)
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.currentVideo(ws))) == previousBytes)
        #expect((try FileManager.default.contentsOfDirectory(atPath: ws)).filter { $0.hasPrefix(".incoming-") }.isEmpty)
    }

    /// A disk that fills mid-shot: the whole fragments recorded are kept as the shot (it plays),
    /// the space is freed, one message says what happened, no FFmpeg log line reaches the user,
    /// and the next shot works (it left the draft and a full disk, and said "nothing was lost"
    /// and "it was removed" at once).
    @Test func aDiskThatFillsMidShotKeepsWhatFittedAndFreesTheSpace() throws {
        guard let small = try Tools.smallFileSystem(size: "40m") else { return }
        defer { Tools.removeSmallFileSystem(small) }
        let noise = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: noise) }
        // Random noise, losslessly encoded: about 10 MB a second, so 40 MB fill up in a few seconds.
        let y4m = "\(noise)/noise.y4m"
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=640x360:r=30,geq=lum='random(1)*255':cb=128:cr=128",
                                            "-frames:v", "150", "-pix_fmt", "yuv420p", y4m])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        let ws = "\(small)/ws"
        #expect(try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
        let previous = try Self.currentID(ws)
        let full = try Self.shoot(ws, ["--device", "y4m:\(y4m)", "--seconds", "10", "--size", "640x360", "--crf", "0", "--preset", "ultrafast", "--json"])
        #expect(failed(full) == Failed(74, "ioFailure", "ShotFailure.diskFullKeptPart"), "\(full.stderr)")
        #expect(!full.stderr.contains("nothing was lost") && !full.stderr.contains("[NULL @") && !full.stderr.contains(" @ 0x"), "\(full.stderr)")
        #expect(try Self.currentID(ws) != previous)
        let kept = try Probe(Self.currentVideo(ws))
        #expect(kept.width == 640 && kept.duration >= 1, "\(kept.duration)")
        #expect(try Probe.decodesCleanly(Self.currentVideo(ws)))
        let left = try FileManager.default.contentsOfDirectory(atPath: ws)
        #expect(!left.contains { $0.hasPrefix(".incoming-") || $0.hasPrefix(".interrupted-") }, "\(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(ws)/shots").count == 1)
        let next = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(ws)/kept"), "nothing was left to recover")
    }

    /// A shoot that fails before recording (no such camera, a broken file) leaves no folder behind
    /// for a later start to report as an interrupted shot.
    @Test func aFailedShootLeavesNoLeftovers() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let broken = "\(ws)-broken.y4m"
        // A header and no frame: ends before its first frame.
        let empty = "\(ws)-empty.y4m"
        try "YUV4MPEG2 W64 H48 F15:1 Ip C420\n".write(toFile: empty, atomically: true, encoding: .utf8)
        defer { unlink(empty) }
        try "YUV4MPEG2 W64 H48 F15:1 Ip C420\nFRAME\nshort".write(toFile: broken, atomically: true, encoding: .utf8)
        defer { unlink(broken) }
        for device in ["/dev/video99", "y4m:\(broken)", "y4m:\(ws)-missing.y4m", "y4m:\(empty)"] {
            let refused = try Self.shoot(ws, ["--device", device, "--seconds", "1", "--json"])
            #expect(refused.status != 0, "\(device)")
            if device.hasSuffix("-empty.y4m") {
                #expect(failed(refused) == Failed(65, "badData", "ShotFailure.inputEndedBeforeFirstFrame"), "\(refused.stderr)")
            }
            let left = (try FileManager.default.contentsOfDirectory(atPath: ws)).filter { $0.hasPrefix(".incoming-") }
            #expect(left.isEmpty, "\(device) left \(left)")
        }
        let next = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
        #expect(next.status == 0, "\(next.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: ws)
        #expect(!after.contains("kept") && !after.contains { $0.hasPrefix(".incoming-") || $0.hasPrefix(".interrupted-") }, "\(after)")
        // A few kilobytes say so (it said "0.0 MB").
        #expect(next.stdout.contains(" KiB") && !next.stdout.contains(" MB"), "\(next.stdout)")
    }

    @Test func killMinus9AtRandomMomentsNeverLosesAClipOfASecondOrMore() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        var recoveredCount = 0, removedShort = 0
        for round in 0..<12 {
            #expect(try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"]).status == 0)
            let previous = try Self.currentID(ws)
            let running = try Tools.start("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--seconds", "60",
                                                       "--size", "320x240", "--fps", "15"])
            if round % 2 == 0 {
                // During start-up or the first second, by the clock.
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...1.5))
            } else {
                // Somewhere after 1.2 to 3 s of recorded frames, by the file (start-up time varies
                // with the machine's load, so the clock alone could miss every recording).
                let target = Double.random(in: 1.2...3.0)
                Self.waitForDraft(ws, String(format: "%.1f s of frames (round %d)", target, round)) { $0.duration >= target }
            }
            kill(running.process.processIdentifier, SIGKILL)
            _ = try Tools.finish(running)
            let incoming = (try FileManager.default.contentsOfDirectory(atPath: ws)).filter { $0.hasPrefix(".incoming-") }
            let recording = incoming.first.map { "\(ws)/\($0)/recording.mp4" }
            let seconds = recording.flatMap { try? Probe($0) }.map(\.duration) ?? 0

            let next = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
            #expect(next.status == 0, "round \(round): \(next.stderr)")
            if abs(seconds - 1.0) < 0.1 {
                // At the threshold, ffprobe's and recorder's durations may round either way.
                _ = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.3", "--size", "160x120"])
            } else if seconds >= 1.0 {
                // A clip of a second or more is never lost: it is kept beside the new shot.
                #expect(try Self.currentID(ws) != previous)
                #expect(try Probe(Self.currentVideo(ws)).width == 160, "round \(round)")
                let keptID = try #require(incoming.first.map { String($0.dropFirst(".incoming-".count)) })
                let keptVideo = "\(ws)/kept/\(keptID)/video.mp4"
                #expect(FileManager.default.fileExists(atPath: keptVideo), "round \(round), \(seconds) s: \(next.stderr)")
                #expect(try Probe(keptVideo).width == 320, "round \(round)")
                #expect(try Probe.decodesCleanly(keptVideo))
                recoveredCount += 1
            } else {
                // Shorter (or nothing written yet): removed, and the new shot recorded.
                #expect(try Probe(Self.currentVideo(ws)).width == 160)
                let shortID = incoming.first.map { String($0.dropFirst(".incoming-".count)) } ?? "-"
                #expect(!FileManager.default.fileExists(atPath: "\(ws)/kept/\(shortID)"), "round \(round): \(next.stderr)")
                removedShort += 1
            }
            #expect((try FileManager.default.contentsOfDirectory(atPath: ws)).filter { $0.hasPrefix(".incoming-") }.isEmpty)
        }
        #expect(recoveredCount >= 6, "only \(recoveredCount) kills landed after a second of recording (\(removedShort) short ones)")
    }

    /// The remuxed video is on the disk before the crash-safe recording it was made from is removed,
    /// both as a shot ends and as an interrupted one is recovered. Removed first, a power cut
    /// before the copy's sync lost both (Tests/vm/power-cut.sh caught it in CI: an empty
    /// video.mp4 and no recording). The order is read from the system calls themselves (strace),
    /// which is the order a power cut sees; the power-cut test in qemu cuts at random moments.
    @Test func theRemuxedCopyIsOnTheDiskBeforeTheRecordingGoes() throws {
        // Resolved: strace names a descriptor's file by its real path, and an unlink by the path given.
        let ws = URL(fileURLWithPath: try Tools.tempDirectory()).resolvingSymlinksInPath().path
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let log = ws + ".strace"
        defer { unlink(log) }
        func traced(_ args: [String]) throws -> Tools.Output {
            // -y names each descriptor's file; the filter keeps the tracing cheap (--seccomp-bpf).
            try Tools.run("strace", ["-f", "-qq", "-y", "--seccomp-bpf", "-e", "trace=fsync,fdatasync,unlink,unlinkat", "-o", log,
                                     try Tools.recorderBinary(), "shoot", "--workspace", ws, "--device", "testsrc"] + args)
        }

        let clean = try traced(["--seconds", "1.5", "--size", "160x120"])
        try #require(clean.status == 0, "\(clean.stderr)")
        Self.expectSyncedBeforeRemoved(try String(contentsOfFile: log, encoding: .utf8), "as a shot ends")

        let running = try Tools.start("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--seconds", "600", "--size", "160x120"])
        Self.waitForDraft(ws, "two fragments") { $0.frames >= 40 }
        kill(running.process.processIdentifier, SIGKILL)
        _ = try Tools.finish(running)
        let next = try traced(["--seconds", "0.5", "--size", "160x120"])
        try #require(next.status == 0 && (try? FileManager.default.contentsOfDirectory(atPath: "\(ws)/kept"))?.count == 1, "\(next.stderr)")
        Self.expectSyncedBeforeRemoved(try String(contentsOfFile: log, encoding: .utf8), "as an interrupted one is recovered")
    }

    /// Each removal of a draft's `recording.mp4` in an strace log (`-f -y`) comes after an fsync or
    /// fdatasync of the `video.mp4` beside it; there is at least one removal.
    static func expectSyncedBeforeRemoved(_ log: String, _ when: String) {
        var synced: Set<String> = [], removals = 0
        for line in log.split(separator: "\n").map(String.init) {
            if line.contains("fsync(") || line.contains("fdatasync(") {
                // fsync(7</tmp/ws/.incoming-ID/video.mp4>) = 0
                if let start = line.range(of: "<"), let end = line.range(of: "/video.mp4>"), start.upperBound <= end.lowerBound {
                    synced.insert(String(line[start.upperBound..<end.lowerBound]))
                }
            } else if line.contains("unlink"), let end = line.range(of: "/recording.mp4\""),
                      let start = line[..<end.lowerBound].range(of: "\"", options: .backwards) {
                let folder = String(line[start.upperBound..<end.lowerBound])
                guard folder.contains("/.incoming-") || folder.contains("/.interrupted-") else { continue }
                removals += 1
                #expect(synced.contains(folder), "\(when): \(folder)/recording.mp4 was removed before \(folder)/video.mp4 was synced: \(line)")
            }
        }
        #expect(removals > 0, "\(when): the trace shows no recording.mp4 removed:\n\(log.suffix(3000))")
    }

    @Test func sigintStopsEarlyWithAValidShorterFile() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let running = try Tools.start("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--seconds", "60",
                                                   "--size", "320x240", "--fps", "15", "--json"])
        // Past shoot.min_seconds (1 s) by the file, not by the clock: start-up alone can take
        // seconds on a busy machine, and a take under the minimum is discarded (exit 130).
        Self.waitForDraft(ws, "23 frames") { $0.frames >= 23 }
        kill(running.process.processIdentifier, SIGINT)
        let result = try Tools.finish(running)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try jsonObject(result.stdout)["endedEarly"] as? String == "stopped", "\(result.stdout)")
        let probe = try Probe(Self.currentVideo(ws))
        #expect(probe.duration > 0.5 && probe.duration < 10)
        #expect(try Probe.decodesCleanly(Self.currentVideo(ws)))
    }

    @Test func secondShootInTheSameWorkspaceIsTurnedAway() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        // The first records until it is stopped, and is seen recording (frames in its draft)
        // before the second starts: a fixed wait would race its start-up on a busy machine.
        let first = try Tools.start("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--seconds", "600", "--size", "160x120"])
        Self.waitForDraft(ws, "30 frames") { $0.frames >= 30 }
        let second = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "1", "--size", "160x120", "--json"])
        #expect(failed(second) == Failed(75, "busy", "ShotFailure.workspaceBusy"), "\(second.stderr)")
        kill(first.process.processIdentifier, SIGINT)
        #expect(try Tools.finish(first).status == 0)
    }

    /// Waits (up to 120 s: start-up alone can take seconds on a busy machine) until the shot being
    /// recorded in `ws` has a draft whose file, as ffprobe reads it (whole fragments: recorded, not
    /// just begun), is `ready`. Its path; nil, with an issue naming `what`, when it never was.
    @discardableResult
    static func waitForDraft(_ ws: String, _ what: String, until ready: (Probe) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(120)
        var seen = "no draft"
        while Date() < deadline {
            if let draft = (try? FileManager.default.contentsOfDirectory(atPath: ws))?.first(where: { $0.hasPrefix(".incoming-") }) {
                let path = "\(ws)/\(draft)/recording.mp4"
                if let probe = try? Probe(path) {
                    if ready(probe) { return path }
                    seen = "\(path): \(probe.frames) frames, \(probe.duration) s"
                } else {
                    seen = "\(path): not readable yet"
                }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the shot being recorded in \(ws) never had \(what) in its draft within 120 s (last seen: \(seen))")
        return nil
    }

    @Test func badInputsGetClearErrorsAndSysexitsAndKeepThePreviousShot() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        #expect(try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
        let previous = try Self.currentID(ws)
        // A command-line mistake (64) has no kind (argument-parser words it): the option it names is judged.
        let cases: [([String], Failed, named: String?)] = [
            (["--seconds", "0"], Failed(64, nil), "--seconds"),
            (["--seconds=-3"], Failed(64, nil), "--seconds"),
            (["--seconds", "-3"], Failed(64, nil), "--seconds"),
            (["--seconds", "99999999"], Failed(64, nil), "--seconds"),
            (["--size", "big"], Failed(64, nil), "--size"),
            (["--size", "0x0"], Failed(64, nil), "--size"),
            (["--fps", "0"], Failed(64, nil), "--fps"),
            (["--format", "foo"], Failed(64, nil), "--format"),
            (["--preset", "warp"], Failed(64, nil), "--preset"),
            (["--device", "/dev/nonexistent"], Failed(66, "notFound", "capture"), nil),
            (["--device", "/dev/null"], Failed(66, "notFound", "capture"), nil),
            (["--device", "y4m:/nonexistent.y4m"], Failed(66, "notFound", "capture"), nil),
            (["--device", "testsrc", "--size", "161x121"], Failed(65, "badData", "capture"), nil),
        ]
        for (args, expected, named) in cases {
            let result = try Self.shoot(ws, args + ["--json"])
            #expect(failed(result) == expected, "\(args): \(result.stderr)")
            if let named { #expect((try? jsonObject(result.stdout))?["error"].map { "\($0)".contains(named) } == true, "\(args): \(result.stdout)") }
            #expect(try Self.currentID(ws) == previous)
        }
        let unwritable = try Tools.run("recorder", ["shoot", "--workspace", "/proc/recorder", "--device", "testsrc", "--seconds", "1"])
        #expect(unwritable.status == 73, "\(unwritable.stderr)")
    }

    @Test func fullDiskIsRefusedUpFrontAndThePreviousShotKept() throws {
        guard let ws = try Tools.smallFileSystem(size: "12m") else { return }
        defer { Tools.removeSmallFileSystem(ws) }
        #expect(try Self.shoot(ws, ["--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
        let previous = try Self.currentID(ws)
        let result = try Self.shoot(ws, ["--device", "testsrc", "--seconds", "60", "--size", "160x120", "--json"])
        #expect(failed(result) == Failed(74, "ioFailure", "ShotFailure.notEnoughSpace"), "\(result.stderr)")
        #expect(try Self.currentID(ws) == previous)
        #expect(try Probe.decodesCleanly(Self.currentVideo(ws)))
    }
}
