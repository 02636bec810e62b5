import Foundation
import MediaEncoder
import Testing

/// `audio.loudness`: every shot's sound at one loudness, read back with ffmpeg's own ebur128 (an
/// independent meter) and its pictures compared packet by packet with ffmpeg's framemd5.
@Suite struct LoudnessTests {
    /// Integrated loudness (LUFS) and true peak (dBTP) of `path`'s sound, by ffmpeg's ebur128.
    static func measure(_ path: String) throws -> (integrated: Double, truePeak: Double) {
        let result = try Tools.run("ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = try #require(result.stderr.components(separatedBy: "Summary:").last, "\(result.stderr.suffix(400))")
        func value(_ label: String, after section: String? = nil) throws -> Double {
            let text = section.flatMap { summary.components(separatedBy: $0).last } ?? summary
            let line = try #require(text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }, "\(summary)")
            return try #require(Double(line.split(separator: " ").dropFirst().first ?? ""), "\(line)")
        }
        return (try value("I:"), try value("Peak:", after: "True peak:"))
    }

    /// The MD5 of each picture packet of `path` (ffmpeg's framemd5 of a stream copy), in order.
    static func picturePackets(_ path: String) throws -> [String] {
        let result = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "framemd5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
    }

    @Test(arguments: [-40.0, -25.0, -12.0])
    func aToneIsBroughtToTheTargetItsPicturesCopiedUntouched(dBFS: Double) throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let take = dir + "/take.mp4", levelled = dir + "/levelled.mp4"
        // A take as a booth makes it: H.264 pictures, a 1 kHz tone peaking at `dBFS` in AAC, 48 kHz stereo.
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=4",
                                            "-f", "lavfi", "-i", "aevalsrc='\(pow(10, dBFS / 20))*sin(2*PI*1000*t)|\(pow(10, dBFS / 20))*sin(2*PI*1000*t)':c=stereo:d=4:s=48000",
                                            "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest", take])
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Self.measure(take)
        #expect(abs(before.truePeak - dBFS) < 1, "a \(dBFS) dBFS tone peaks at \(before.truePeak) dBTP")
        let outcome = try #require(try SoundLeveller.level(take: take, to: levelled, target: -16))
        let after = try Self.measure(levelled)
        #expect(abs(after.integrated + 16) <= 1, "\(dBFS) dBFS: \(before.integrated) LUFS became \(after.integrated) LUFS")
        #expect(after.truePeak <= -1, "\(dBFS) dBFS: true peak \(after.truePeak) dBTP")
        #expect(abs(outcome.before.integrated - before.integrated) < 0.5, "its own meter read \(outcome.before.integrated), ffmpeg \(before.integrated)")
        let pictures = try Self.picturePackets(take)
        let copied = try Self.picturePackets(levelled)
        #expect(!pictures.isEmpty && pictures == copied, "the picture packets differ")
        let durations = try Tools.streamDurations(levelled)
        #expect(abs((durations.audio ?? 0) - durations.video) < 0.05, "sound \(String(describing: durations.audio)) s, pictures \(durations.video) s")
    }

    @Test func quietSoundWithLoudPeaksIsLimitedAtThePeaksNotClipped() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let take = dir + "/take.mp4", levelled = dir + "/levelled.mp4"
        // A quiet tone (-30 dBFS) with a loud 3 ms click every half second: lifting the tone to
        // the target would put the clicks over full scale.
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=4",
                                            "-f", "lavfi", "-i", "aevalsrc='0.0316*sin(2*PI*440*t)':d=4:s=48000",
                                            "-f", "lavfi", "-i", "aevalsrc='if(lt(mod(t\\,0.5)\\,0.003)\\,0.9*sin(2*PI*3000*t)\\,0)':d=4:s=48000",
                                            "-filter_complex", "[1:a][2:a]amix=inputs=2:normalize=0,aformat=channel_layouts=stereo[a]",
                                            "-map", "0:v", "-map", "[a]", "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest", take])
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Self.measure(take)
        let outcome = try #require(try SoundLeveller.level(take: take, to: levelled, target: -16))
        let after = try Self.measure(levelled)
        #expect(before.truePeak + (-16 - before.integrated) > -1, "the clicks would not go over -1 dBTP: \(before)")
        #expect(outcome.limited, "\(outcome)")
        #expect(abs(after.integrated + 16) <= 1 && after.truePeak <= -1, "\(before) became \(after)")
    }

    @Test func aShotsBeepIsAtTheTargetAndSaysWhatItWas() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "3", "--size", "320x240", "--audio", "beep", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try Self.measure(box.currentVideo)
        #expect(abs(after.integrated + 16) <= 1 && after.truePeak <= -1, "\(after)")
        let shot = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let loudness = (shot["audio"] as? [String: Any])?["loudness"] as? [String: Any] ?? [:]
        #expect(loudness["targetLUFS"] as? Double == -16 && loudness["left"] == nil, "\(loudness)")
        let measured = (loudness["after"] as? [String: Any])?["integratedLUFS"] as? Double ?? 0
        #expect(abs(measured - after.integrated) < 0.3, "the shot says \(measured) LUFS, ffmpeg reads \(after.integrated)")
        #expect((loudness["before"] as? [String: Any])?["integratedLUFS"] is Double, "\(loudness)")
        // Off: the sound as recorded, and nothing said of it.
        let off = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "3", "--size", "320x240", "--audio", "beep",
                                    "--set", "audio.loudness=off", "--json"])
        let plain = try JSONSerialization.jsonObject(with: Data(off.stdout.utf8)) as? [String: Any] ?? [:]
        #expect((plain["audio"] as? [String: Any])?["loudness"] == nil, "\(off.stdout)")
        let raw = try Self.measure(box.currentVideo)
        #expect(abs(raw.integrated - after.integrated) > 0.5, "off reads \(raw.integrated), levelled \(after.integrated): the test beep is already at the target?")
    }

    @Test func aBadTargetIsRefusedBeforeAnythingIsRecorded() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "1", "--set", "audio.loudness=-3", "--json"])
        #expect(failed(result) == Failed(78, "misconfigured", "ConfigurationProblem.badValue"), "\(result.stderr)")
        #expect(failureData(result)["key"] as? String == "audio.loudness" && failureData(result)["value"] as? String == "-3", "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: box.currentVideo))
    }
}
