import Foundation
import Testing
import AudioCapture
import MediaEncoder
import VideoCapture
import MediaValues

/// Sound in the MP4, measured by an independent reader: ffprobe's `signalstats` finds the picture's
/// flashes, `silencedetect` the beeps' onsets, and each pair's offset must be within ATSC IS-191's
/// lip-sync limits (sound at most 15 ms early, at most 45 ms late).
@Suite struct SoundTests {
    static let earliest = -0.015, latest = 0.045

    /// Times (s) of the frames whose top-right quarter is white: the test pattern's flash.
    static func flashTimes(_ path: String) throws -> [Double] {
        let out = try Tools.run("ffprobe", ["-v", "error", "-f", "lavfi", "-i", "movie=\(path),crop=iw/4:ih/4:iw*3/4:0,signalstats",
                                            "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"])
        try #require(out.status == 0, "ffprobe signalstats: \(out.stderr)")
        var times: [Double] = []
        var previousWhite = false
        for line in out.stdout.split(separator: "\n") {
            let parts = line.split(separator: ",")
            guard parts.count == 2, let time = Double(parts[0]), let yavg = Double(parts[1]) else { continue }
            let white = yavg > 200
            if white && !previousWhite { times.append(time) }
            previousWhite = white
        }
        return times
    }

    /// Times (s) where a beep starts after silence.
    static func beepOnsets(_ path: String) throws -> [Double] {
        let out = try Tools.run("ffprobe", ["-v", "error", "-f", "lavfi", "-i", "amovie=\(path),silencedetect=n=-30dB:d=0.05",
                                            "-show_entries", "frame_tags=lavfi.silence_end", "-of", "csv=p=0"])
        try #require(out.status == 0, "ffprobe silencedetect: \(out.stderr)")
        return out.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Each beep paired with the nearest flash: beep time minus flash time (positive: sound late).
    static func offsets(_ path: String) throws -> [(flash: Double, offset: Double)] {
        let flashes = try flashTimes(path), beeps = try beepOnsets(path)
        return beeps.compactMap { beep in
            guard let flash = flashes.min(by: { abs($0 - beep) < abs($1 - beep) }), abs(flash - beep) < 0.5 else { return nil }
            return (flash, beep - flash)
        }
    }

    static func audioStream(_ path: String) throws -> [String: String] {
        let out = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                            "stream=codec_name,profile,sample_rate,channels:format=duration", "-of", "default=noprint_wrappers=1", path])
        var fields: [String: String] = [:]
        for line in out.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    /// `recorder shoot` on the test pattern: an AAC-LC track with the beep, in sync with the flash,
    /// in the file, and said in the JSON.
    @Test func testPatternShotHasItsBeepInSync() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let result = try Tools.run("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--size", "320x240", "--fps", "30",
                                                "--seconds", "4", "--json", "--quiet"])
        try #require(result.status == 0, "shoot failed: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let audio = try #require(json["audio"] as? [String: Any], "no audio in \(result.stdout)")
        #expect(audio["codec"] as? String == "aac")
        #expect(audio["sampleRate"] as? Int == 48_000 && audio["channels"] as? Int == 1)
        #expect(audio["source"] as? String == "test beep")
        let path = "\(ws)/current/video.mp4"
        let stream = try Self.audioStream(path)
        #expect(stream["codec_name"] == "aac" && stream["profile"] == "LC" && stream["sample_rate"] == "48000", "\(stream)")
        let offsets = try Self.offsets(path)
        let flashes = try Self.flashTimes(path), beeps = try Self.beepOnsets(path)
        // Beeps at 1, 2 and 3 s (the one at 0 has no silence before it).
        #expect(offsets.count == 3, "flashes \(flashes), beeps \(beeps)")
        for pair in offsets {
            #expect(pair.offset >= Self.earliest && pair.offset <= Self.latest,
                    "beep at \(pair.flash) s is \(Int((pair.offset * 1000).rounded())) ms off")
        }
        // The sound lasts as long as the picture (the asked 4 s), not a frame or a priming more.
        let duration = Double(stream["duration"] ?? "") ?? 0
        #expect(abs(duration - 4) < 0.03, "duration \(duration)")
    }

    /// `--audio none` records a silent shot and says so: `"audio": null`, no sound stream.
    @Test func audioNoneIsSilentAndSaysSo() throws {
        let ws = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: ws) }
        let result = try Tools.run("recorder", ["shoot", "--workspace", ws, "--device", "testsrc", "--size", "160x120",
                                                "--seconds", "1", "--audio", "none", "--json", "--quiet"])
        try #require(result.status == 0, "shoot failed: \(result.stderr)")
        let document = try jsonObject(result.stdout)
        // (present, as null: a missing key is nil, not NSNull)
        #expect(document["audio"] is NSNull, "\(result.stdout)")
        #expect(try Self.audioStream("\(ws)/current/video.mp4")["codec_name"] == nil)
    }

    /// A camera's own H.264 (copied, not re-encoded) gets sound too: the sound waits for the first
    /// keyframe (the file's time 0) and starts there, in sync.
    @Test func cameraH264GetsSoundToo() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 4 s of the flashing pattern at 15 fps as H.264 access units, a keyframe every 15 frames.
        let width = 320, height = 240, fps = 15, count = 60
        var image = [UInt8](repeating: 0, count: width * height * 3 / 2)
        var raw = Data()
        for frame in 0..<count {
            TestPattern.draw(into: &image, width: width, height: height, frame: UInt64(frame), flash: frame % fps == 0)
            raw.append(contentsOf: image)
        }
        try raw.write(to: URL(fileURLWithPath: "\(dir)/in.yuv"))
        let encoded = try Tools.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-r", "\(fps)",
                                               "-i", "\(dir)/in.yuv", "-c:v", "libx264", "-bf", "0", "-g", "\(fps)", "-x264-params", "repeat-headers=1",
                                               "-bsf:v", "h264_mp4toannexb", "-f", "image2", "\(dir)/f%03d.h264"])
        try #require(encoded.status == 0, "\(encoded.stderr)")
        let input = CaptureFormat(pixelFormat: .h264, width: width, height: height, frameRate: FrameRate(fps))
        let recorder = try MP4Encoder(path: "\(dir)/out.frag", input: input, settings: EncoderSettings(), audio: ToneSource().format)
        let tone = ToneSource(origin: 1_000_000)
        for frame in 0..<count {
            let time = 1_000_000 + Int64(frame) * 1_000_000 / Int64(fps)
            let unit = try Data(contentsOf: URL(fileURLWithPath: String(format: "\(dir)/f%03d.h264", frame + 1)))
            try unit.withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: time, sequence: UInt64(frame)))
            }
            try recorder.appendAudio(tone.take(until: time))
        }
        let summary = try recorder.finish()
        #expect(summary.encoder == "copy" && summary.audio?.codec == "aac")
        try MP4Remuxer.faststart(from: "\(dir)/out.frag", to: "\(dir)/out.mp4", endSeconds: summary.durationSeconds)
        #expect(try Self.audioStream("\(dir)/out.mp4")["codec_name"] == "aac")
        let offsets = try Self.offsets("\(dir)/out.mp4")
        #expect(offsets.count == 3, "\(offsets)")
        for pair in offsets {
            #expect(pair.offset >= Self.earliest && pair.offset <= Self.latest, "beep at \(pair.flash) s is \(Int((pair.offset * 1000).rounded())) ms off")
        }
    }

    /// A sound card whose clock runs 0.3% fast or slow against the camera's (uncorrected: 60 ms
    /// after 20 s, 360 ms after 2 minutes) stays in sync: the encoder follows the capture times.
    /// The card is simulated only in its clock: its samples are stamped with the true times, as a
    /// driver's monotonic timestamps are.
    @Test(arguments: [1.003, 0.997])
    func aDriftingSoundCardStaysInSync(clock: Double) throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let width = 160, height = 120, fps = 10, seconds = 20
        let input = CaptureFormat(pixelFormat: .yu12, width: width, height: height, frameRate: FrameRate(fps))
        let sound = AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .s16)
        let recorder = try MP4Encoder(path: "\(dir)/out.frag", input: input, settings: EncoderSettings(preset: "ultrafast"),
                                      audio: sound)
        // The card's own rate, in samples per true second; it delivers 10 ms (by its count) at a time.
        let cardRate = 48_000 * clock
        let period = 480
        var sent = 0  // samples delivered so far
        var image = [UInt8](repeating: 0, count: width * height * 3 / 2)
        let start: Int64 = 1_000_000
        for frame in 0..<(fps * seconds) {
            let time = start + Int64(frame) * 1_000_000 / Int64(fps)
            TestPattern.draw(into: &image, width: width, height: height, frame: UInt64(frame), flash: frame % fps == 0)
            try image.withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: time, sequence: UInt64(frame)))
            }
            // Sound up to this frame's time: a beep in the first 0.1 s of every true second.
            var chunks: [AudioChunk] = []
            while start + Int64(Double(sent + period) / cardRate * 1_000_000) <= time {
                var bytes = [UInt8](repeating: 0, count: period * 2)
                for i in 0..<period {
                    let t = Double(sent + i) / cardRate
                    guard t - t.rounded(.down) < 0.1 else { continue }
                    let value = UInt16(bitPattern: Int16(16_000 * sin(2 * Double.pi * 1000 * t)))
                    bytes[2 * i] = UInt8(value & 0xff)
                    bytes[2 * i + 1] = UInt8(value >> 8)
                }
                chunks.append(AudioChunk(bytes: bytes, frames: period, timestampMicroseconds: start + Int64(Double(sent) / cardRate * 1_000_000)))
                sent += period
            }
            try recorder.appendAudio(chunks)
        }
        _ = try recorder.finish()
        try MP4Remuxer.faststart(from: "\(dir)/out.frag", to: "\(dir)/out.mp4")
        let offsets = try Self.offsets("\(dir)/out.mp4")
        let flashes = try Self.flashTimes("\(dir)/out.mp4"), beeps = try Self.beepOnsets("\(dir)/out.mp4")
        #expect(offsets.count >= seconds - 2, "flashes \(flashes), beeps \(beeps)")
        for pair in offsets {
            #expect(pair.offset >= Self.earliest && pair.offset <= Self.latest,
                    "clock \(clock): beep at \(pair.flash) s is \(Int((pair.offset * 1000).rounded())) ms off")
        }
    }
}
