import Foundation
import Testing
import MediaEncoder
import VideoCapture
import MediaValues

/// Every input format through MP4Encoder, checked against the source picture by ffmpeg's PSNR filter.
@Suite struct EncodeFormatsTests {
    static let width = 320, height = 240, frames = 10
    static let reference = "testsrc2=size=320x240:rate=15"

    /// Raw frames of ffmpeg's testsrc2 in `ffmpegFormat`, one buffer per frame.
    static func rawFrames(_ ffmpegFormat: String, dir: String) throws -> [Data] {
        let path = "\(dir)/frames.raw"
        try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", reference, "-frames:v", "\(frames)",
                                 "-pix_fmt", ffmpegFormat, "-f", "rawvideo", path])
        let all = try Data(contentsOf: URL(fileURLWithPath: path))
        let size = all.count / frames
        return (0..<frames).map { all.subdata(in: ($0 * size)..<(($0 + 1) * size)) }
    }

    /// Compressed frames (one JPEG or one H.264 access unit per file), as a camera delivers them.
    static func encodedFrames(_ codecArgs: [String], ext: String, dir: String) throws -> [Data] {
        try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", reference, "-frames:v", "\(frames)"] + codecArgs
                                + ["-f", "image2", "\(dir)/f%03d.\(ext)"])
        return try (1...frames).map { try Data(contentsOf: URL(fileURLWithPath: String(format: "\(dir)/f%03d.\(ext)", $0))) }
    }

    /// Records `frames` as the product does: fragmented while writing, then remuxed to `path`.
    static func record(_ frames: [Data], format: PixelFormat, to path: String) throws -> EncodingSummary {
        let input = CaptureFormat(pixelFormat: format, width: width, height: height, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: path + ".frag", input: input, settings: EncoderSettings(crf: 18))
        for (i, data) in frames.enumerated() {
            try data.withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(i) * 66_667,
                                               sequence: UInt64(i)))
            }
        }
        let summary = try recorder.finish()
        try MP4Remuxer.faststart(from: path + ".frag", to: path)
        return summary
    }

    /// PSNR of `path` against the reference pattern (or the file `source`), frame by frame in order:
    /// luma only for grey input.
    static func psnr(_ path: String, lumaOnly: Bool, source: String? = nil, frames: Int = frames) throws -> Double {
        let sourceArgs = source.map { ["-i", $0] } ?? ["-f", "lavfi", "-i", reference]
        let pair = "[0:v]format=yuv420p,settb=1/25,setpts=N[a];[1:v]format=yuv420p,settb=1/25,setpts=N[b];[a][b]psnr"
        let result = try Tools.run("ffmpeg", ["-v", "info", "-i", path] + sourceArgs
                                              + ["-lavfi", pair, "-frames:v", "\(frames)", "-f", "null", "-"])
        let key = lumaOnly ? " y:" : "average:"
        guard let line = result.stderr.split(separator: "\n").last(where: { $0.contains("PSNR") }),
              let range = line.range(of: key) else { throw ProbeFailed(path: path, stderr: result.stderr) }
        let value = line[range.upperBound...].prefix { !$0.isWhitespace }
        return value == "inf" ? 100 : Double(value) ?? 0
    }

    @Test(arguments: [
        ("yuyv422", PixelFormat.yuyv), ("uyvy422", .uyvy), ("yvyu422", .yvyu), ("nv12", .nv12), ("nv21", .nv21),
("yuv420p", .yu12), ("yuv422p", .yuv422p), ("rgb24", .rgb24), ("bgr24", .bgr24),
        ("bgr0", .xbgr32), ("bgra", .abgr32), ("rgb565le", .rgb565), ("gray", .grey),
    ])
    func rawFormatMatchesTheSource(ffmpegFormat: String, format: PixelFormat) throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let summary = try Self.record(try Self.rawFrames(ffmpegFormat, dir: dir), format: format, to: "\(dir)/out.mp4")
        #expect(summary.framesWritten == Self.frames)
        let probe = try Probe("\(dir)/out.mp4")
        #expect(probe.codec == "h264" && probe.width == Self.width && probe.height == Self.height)
        #expect(probe.frames == Self.frames)
        // Lossy coding at CRF 18 of 320x240 testsrc2 lands well above 30 dB; a wrong plane order or
        // stride lands far below 20.
        #expect(try Self.psnr("\(dir)/out.mp4", lumaOnly: format == .grey) > 30)
    }

    /// A shot that ran its full length covers it even when the camera's last frames never came
    /// (dropped, or a driver that fell behind): the last picture stays until the end, so a 10-frame
    /// span whose frames 6 to 9 are missing still lasts 10 frames, as ffprobe reads the file.
    @Test(arguments: [true, false])
    func lastPictureLastsUntilTheShotsEnd(ranFullLength: Bool) throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try Self.rawFrames("yuv420p", dir: dir).prefix(6)
        let input = CaptureFormat(pixelFormat: .yu12, width: Self.width, height: Self.height, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: "\(dir)/out.frag", input: input, settings: EncoderSettings(crf: 18))
        let start: Int64 = 5_000_000
        for (i, data) in frames.enumerated() {
            try data.withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: start + Int64(i) * 66_667,
                                               sequence: UInt64(i)))
            }
        }
        let summary = try recorder.finish(endTimestamp: ranFullLength ? start + 666_667 : nil)
        try MP4Remuxer.faststart(from: "\(dir)/out.frag", to: "\(dir)/out.mp4", endSeconds: summary.durationSeconds)
        let probe = try Probe("\(dir)/out.mp4")
        let expected = ranFullLength ? 0.667 : 0.4
        #expect(probe.frames == 6)
        #expect(abs(summary.durationSeconds - expected) < 0.002, "summary says \(summary.durationSeconds) s")
        #expect(abs(probe.duration - expected) < 0.002, "ffprobe reads \(probe.duration) s")
    }

    @Test func yv12SwapsChromaPlanes() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // yuv420p with U and V swapped is YV12.
        let frames = try Self.rawFrames("yuv420p", dir: dir).map { data -> Data in
            let y = Self.width * Self.height, c = y / 4
            return data.subdata(in: 0..<y) + data.subdata(in: (y + c)..<(y + 2 * c)) + data.subdata(in: y..<(y + c))
        }
        _ = try Self.record(frames, format: .yv12, to: "\(dir)/out.mp4")
        #expect(try Self.psnr("\(dir)/out.mp4", lumaOnly: false) > 30)
    }

    @Test func mjpegIsDecodedAndEncoded() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpegs = try Self.encodedFrames(["-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj422p"], ext: "jpg", dir: dir)
        let summary = try Self.record(jpegs, format: .mjpeg, to: "\(dir)/out.mp4")
        #expect(summary.encoder == "libx264" && summary.framesWritten == Self.frames && summary.framesDropped == 0)
        #expect(try Self.psnr("\(dir)/out.mp4", lumaOnly: false) > 28)
    }

    @Test func damagedJpegIsCountedAsDroppedNotFatal() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var jpegs = try Self.encodedFrames(["-c:v", "mjpeg"], ext: "jpg", dir: dir)
        jpegs[3] = Data(repeating: 0x42, count: 100)
        let summary = try Self.record(jpegs, format: .mjpeg, to: "\(dir)/out.mp4")
        #expect(summary.framesWritten == Self.frames - 1)
        #expect(summary.framesDropped == 1)
    }

    @Test func h264IsCopiedWithoutReencoding() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let units = try Self.encodedFrames(["-c:v", "libx264", "-bf", "0", "-g", "5", "-x264-params", "repeat-headers=1",
                                            "-bsf:v", "h264_mp4toannexb"], ext: "h264", dir: dir)
        // Start mid-GOP, as a camera joined late would: frames before the next keyframe are skipped.
        let summary = try Self.record(Array(units.dropFirst(2)), format: .h264, to: "\(dir)/out.mp4")
        #expect(summary.encoder == "copy")
        #expect(summary.framesSkipped == 3)
        #expect(summary.framesWritten == Self.frames - 5)
        let probe = try Probe("\(dir)/out.mp4")
        #expect(probe.codec == "h264" && probe.frames == Self.frames - 5)
        #expect(try Probe.decodesCleanly("\(dir)/out.mp4"))
        // The copied bitstream must be the camera's own: re-extract it and compare the bytes of an access unit.
        let extracted = try Tools.run("ffmpeg", ["-v", "error", "-i", "\(dir)/out.mp4", "-c", "copy", "-bsf:v", "h264_mp4toannexb",
                                                 "-f", "h264", "\(dir)/copy.h264"])
        #expect(extracted.status == 0)
        let copied = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/copy.h264"))
        #expect(copied.range(of: units[6].suffix(64)) != nil)
    }

    @Test func droppedFramesAreCountedFromSequenceGapsAndDurationStaysTrue() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try Self.rawFrames("yuv420p", dir: dir)
        let input = CaptureFormat(pixelFormat: .yu12, width: Self.width, height: Self.height, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings())
        // Keep frames 0,1,2,6,7,8,9: the driver "dropped" 3,4,5.
        for i in [0, 1, 2, 6, 7, 8, 9] {
            try frames[i].withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(i) * 66_667, sequence: UInt64(i)))
            }
        }
        let summary = try recorder.finish()
        #expect(summary.framesDropped == 3 && summary.framesWritten == 7)
        try MP4Remuxer.faststart(from: "\(dir)/out.mp4", to: "\(dir)/final.mp4")
        let probe = try Probe("\(dir)/final.mp4")
        #expect(probe.frames == 7)
        #expect(abs(probe.duration - 10.0 / 15) < 1.0 / 15 + 0.001)
    }

    @Test func aBufferHandedOverTwiceIsRecordedOnceAndAStuckCountIsNoRepeat() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try Self.rawFrames("yuv420p", dir: dir)
        let input = CaptureFormat(pixelFormat: .yu12, width: Self.width, height: Self.height, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings())
        var recorded: [UInt64] = []
        recorder.onFrameRecorded = { recorded.append($0.sequence) }
        // v4l2loopback re-reading its last frame: frame 2 (same number, same time) comes twice.
        for (i, time) in [(0, 0), (1, 1), (2, 2), (2, 2), (3, 3)] {
            try frames[i].withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(time) * 66_667, sequence: UInt64(i)))
            }
        }
        // A loopback writer that queues buffers leaves every number at 0: new times, new frames.
        let stuck = try MP4Encoder(path: "\(dir)/stuck.mp4", input: input, settings: EncoderSettings())
        for i in 0..<4 {
            try frames[i].withUnsafeBytes { bytes in
                try stuck.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(i) * 66_667, sequence: 0))
            }
        }
        let summary = try recorder.finish()
        #expect(summary.framesWritten == 4 && summary.framesRepeated == 1 && summary.framesDropped == 0)
        #expect(recorded == [0, 1, 2, 3])
        #expect(try Probe("\(dir)/out.mp4").frames == 4)
        let stuckSummary = try stuck.finish()
        #expect(stuckSummary.framesWritten == 4 && stuckSummary.framesRepeated == 0)
        #expect(try Probe("\(dir)/stuck.mp4").frames == 4)
    }

    @Test func aGapLongerThanWhatFollowsItDoesNotStretchTheFile() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try Self.rawFrames("yuv420p", dir: dir)
        let input = CaptureFormat(pixelFormat: .yu12, width: Self.width, height: Self.height, frameRate: FrameRate(15))
        let recorder = try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings())
        // A camera that stalls for 1.5 s after 6 frames (its driver drops 21), then delivers 3 more.
        for i in [0, 1, 2, 3, 4, 5, 27, 28, 29] {
            try frames[i % Self.frames].withUnsafeBytes { bytes in
                try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(i) * 66_667, sequence: UInt64(i)))
            }
        }
        #expect(try recorder.finish().framesDropped == 21)
        try MP4Remuxer.faststart(from: "\(dir)/out.mp4", to: "\(dir)/final.mp4")
        // ffprobe's container duration is the movie header's, which players show: 30 frames at 15 fps.
        let probe = try Probe("\(dir)/final.mp4")
        #expect(probe.frames == 9)
        #expect(abs(probe.duration - 2.0) < 1.0 / 15, "\(probe.duration)")
        #expect(abs(try MediaProbe.inspect("\(dir)/final.mp4").durationSeconds - 2.0) < 1.0 / 15)
    }

    @Test func aSingleFrameShotLastsOneFrame() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try Self.rawFrames("yuv420p", dir: dir)
        _ = try Self.record([frames[0]], format: .yu12, to: "\(dir)/out.mp4")
        let probe = try Probe("\(dir)/out.mp4")
        #expect(probe.frames == 1)
        #expect(abs(probe.duration - 1.0 / 15) < 0.01, "\(probe.duration)")
    }

    @Test func encoderAndFileFailuresAtOpenAreErrorsNotCrashes() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = CaptureFormat(pixelFormat: .yu12, width: Self.width, height: Self.height, frameRate: FrameRate(15))
        // libx264 refuses the preset in avcodec_open2; the file cannot be created in avio_open. Both
        // used to free what deinit frees again.
        let preset = #expect(throws: MediaError.self) {
            try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings(preset: "warp"))
        }
        #expect(preset?.call == "avcodec_open2(libx264)")
        let path = #expect(throws: MediaError.self) {
            try MP4Encoder(path: "\(dir)/missing/out.mp4", input: input, settings: EncoderSettings())
        }
        #expect(path?.call == "avio_open" && path?.kind == .failed)
    }

    @Test func diskFullIsReportedAsSuch() throws {
        guard let dir = try Tools.smallFileSystem(size: "256k") else { return }
        defer { Tools.removeSmallFileSystem(dir) }
        let input = CaptureFormat(pixelFormat: .yu12, width: 640, height: 480, frameRate: FrameRate(30))
        let recorder = try MP4Encoder(path: "\(dir)/out.mp4", input: input, settings: EncoderSettings(crf: 0))
        var noise = [UInt8](repeating: 0, count: 640 * 480 * 3 / 2)
        var generator = SystemRandomNumberGenerator()
        #expect {
            for i in 0..<120 {
                for j in noise.indices { noise[j] = UInt8.random(in: 0...255, using: &generator) }
                try noise.withUnsafeBytes { bytes in
                    try recorder.append(VideoFrame(format: input, bytes: bytes, timestampMicroseconds: Int64(i) * 33_333, sequence: UInt64(i)))
                }
            }
            _ = try recorder.finish()
        } throws: { ($0 as? MediaError)?.kind == .diskFull }
    }
}
