import Foundation
import Testing
@testable import MediaEncoder
import VideoCapture
import MediaValues

/// MediaEncoder's failure paths on real files (issue 51): a size libx264 itself refuses, a disk
/// that fills in the middle of a fragment, a remux of a recording cut off mid-fragment. Each is
/// judged by its kind and by ffprobe on what is left, and the file recorded before is kept whole.
@Suite(.serialized) struct EncoderFailureTests {
    /// 160x120 YU12 pictures of noise (x264 cannot shrink them much, so fragments are large),
    /// 30 a second.
    static let format = CaptureFormat(pixelFormat: .yu12, width: 160, height: 120, frameRate: FrameRate(30))
    /// A fragment every 0.2 s: six pictures.
    static let settings = EncoderSettings(keyframeIntervalSeconds: 0.2)

    /// Records `frames` pictures of noise (seeded: the same run gives the same file), stopping at
    /// the first failure; returns the frames appended and the failure, if any.
    static func record(_ encoder: MP4Encoder, frames: Int, seed: UInt64) -> (appended: Int, failure: MediaError?) {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: format.width * format.height * 3 / 2)
        for index in 0..<frames {
            for offset in bytes.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[offset] = UInt8(truncatingIfNeeded: state >> 56)
            }
            let failure = bytes.withUnsafeBytes { raw -> MediaError? in
                let frame = VideoFrame(format: format, bytes: raw, timestampMicroseconds: Int64(index) * 33_333, sequence: UInt64(index))
                do throws(MediaError) { try encoder.append(frame) } catch { return error }
                return nil
            }
            if let failure { return (index, failure) }
        }
        return (frames, nil)
    }

    /// A whole recording of `frames` pictures at `path`.
    static func recordWhole(_ path: String, frames: Int, seed: UInt64) throws {
        let encoder = try MP4Encoder(path: path, input: format, settings: settings)
        let recorded = record(encoder, frames: frames, seed: seed)
        #expect(recorded.failure == nil && recorded.appended == frames)
        _ = try encoder.finish()
    }

    @Test func aSizeLibx264RefusesIsAFailedEncoderOpenAndTheFileBeforeIsKept() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let previous = dir.path + "/previous.mp4"
        try Self.recordWhole(previous, frames: 12, seed: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: previous))
        // Even and at least 16x16 (the encoder's own check passes it), but wider than libx264's
        // 16384: libx264 refuses it when the encoder opens ("invalid width x height"), and
        // libavcodec answers AVERROR_EXTERNAL, FFERRTAG('E', 'X', 'T', ' ').
        let wide = CaptureFormat(pixelFormat: .yu12, width: 16400, height: 16, frameRate: FrameRate(30))
        let refused = dir.path + "/refused.mp4"
        #expect {
            try MP4Encoder(path: refused, input: wide, settings: EncoderSettings())
        } throws: { error in
            guard let error = error as? MediaError else { return false }
            return error.kind == .failed && error.code == -0x2054_5845
        }
        // Nothing playable was left under the refused name, and the recording before is whole.
        #expect(FFprobe.video(refused) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: previous)) == before)
        #expect(FFprobe.video(previous) == FFprobe.Video(codec: "h264", width: 160, height: 120, frames: 12, packets: 12))
    }

    @Test func aDiskFullMidFragmentIsDiskFullAndKeepsTheFragmentsBefore() throws {
        guard let disk = try Scratch(tmpfsBytes: 1 << 20) else { return }
        defer { disk.remove() }
        let previous = disk.path + "/previous.mp4"
        try Self.recordWhole(previous, frames: 12, seed: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: previous))
        let path = disk.path + "/shot.mp4"
        let encoder = try MP4Encoder(path: path, input: Self.format, settings: Self.settings)
        // More than the disk holds: the failure comes from a write or a sync inside a fragment.
        var (appended, failure) = Self.record(encoder, frames: 600, seed: 2)
        if failure == nil {
            do throws(MediaError) { _ = try encoder.finish() } catch { failure = error }
        } else {
            encoder.abandon()
        }
        #expect(failure?.kind == .diskFull)
        #expect(failure?.path == path)
        #expect(appended < 600)
        // What is left plays every whole fragment on the disk (six pictures each, at least one),
        // and at most the pictures appended.
        let whole = Boxes.top(try Data(contentsOf: URL(fileURLWithPath: path))).filter { $0.type == "mdat" && $0.complete }.count
        let left = try #require(FFprobe.video(path))
        #expect(left.codec == "h264" && left.width == 160 && left.height == 120)
        #expect(whole >= 1 && left.frames >= whole * 6 && left.frames <= appended, "\(left.frames) read, \(whole) whole fragments, \(appended) appended")
        #expect(try Data(contentsOf: URL(fileURLWithPath: previous)) == before)
        #expect(FFprobe.video(previous)?.frames == 12)
    }

    @Test func aRemuxOfARecordingCutMidFragmentKeepsEveryWholePicture() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let cut = dir.path + "/cut.mp4"
        try Self.recordWhole(cut, frames: 60, seed: 3)
        // Cut in the middle of the sixth fragment's pictures (its mdat box): a power cut there.
        let boxes = Boxes.top(try Data(contentsOf: URL(fileURLWithPath: cut)))
        let mdats = boxes.filter { $0.type == "mdat" }
        #expect(mdats.count == 10)
        let sixth = try #require(mdats.dropFirst(5).first)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cut))
        try handle.truncate(atOffset: UInt64(sixth.offset + sixth.size / 2))
        try handle.close()
        let source = try Data(contentsOf: URL(fileURLWithPath: cut))
        let out = dir.path + "/out.mp4"
        var failure: MediaError?
        do throws(MediaError) { try MP4Remuxer.faststart(from: cut, to: out) } catch { failure = error }
        // What ffprobe reads of the cut file (the five whole fragments, and the pictures of the
        // sixth whose bytes are there) is what the remux keeps: nothing lost, nothing invented.
        // The picture the cut went through is read short: ffprobe counts its packet but decodes
        // no picture from it, and the remux leaves it out (ffmpeg's own `-c copy` copies it).
        let readable = try #require(FFprobe.video(cut))
        #expect(failure == nil)
        #expect(readable.frames >= 30 && readable.frames < 36, "\(readable)")
        #expect(readable.packets == readable.frames + 1, "the cut went through a picture: \(readable)")
        #expect(FFprobe.video(out) == FFprobe.Video(codec: "h264", width: 160, height: 120, frames: readable.frames, packets: readable.frames))
        // The index first (faststart): moov before mdat, and one mdat, not fragments.
        let outBoxes = Boxes.top(try Data(contentsOf: URL(fileURLWithPath: out))).map(\.type)
        #expect(outBoxes.firstIndex(of: "moov").map { $0 < (outBoxes.firstIndex(of: "mdat") ?? 0) } == true, "\(outBoxes)")
        #expect(!outBoxes.contains("moof"))
        // The recording it came from is untouched.
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut)) == source)
    }
}

/// A scratch directory, or one with a small tmpfs mounted on it (a disk that fills on demand).
struct Scratch {
    let path: String
    let mounted: Bool

    init() throws {
        path = NSTemporaryDirectory() + "recorder-encoder-\(UUID().uuidString)"
        mounted = false
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// nil, with an issue recorded, when not root (CI runs as root).
    init?(tmpfsBytes: Int) throws {
        guard getuid() == 0 else {
            Issue.record("this test mounts a small tmpfs and needs root; run the README's test command as root (CI does)")
            return nil
        }
        try self.init()
        let status = Run.status("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(tmpfsBytes)", "tmpfs", path])
        try #require(status == 0)
        self = Scratch(path: path, mounted: true)
    }

    private init(path: String, mounted: Bool) {
        self.path = path
        self.mounted = mounted
    }

    func remove() {
        if mounted { _ = Run.status("/usr/bin/umount", [path]) }
        try? FileManager.default.removeItem(atPath: path)
    }
}

enum Run {
    /// Runs a tool to its end: its exit status, and its standard output.
    static func output(_ tool: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func status(_ tool: String, _ arguments: [String]) -> Int32 { output(tool, arguments).status }
}

/// ffprobe, an independent reader, on a file's first video stream.
enum FFprobe {
    struct Video: Equatable {
        var codec: String
        var width: Int
        var height: Int
        /// Pictures ffprobe decoded.
        var frames: Int
        /// Packets (pictures as stored) it read, decodable or not.
        var packets: Int
    }

    /// nil when ffprobe finds no video stream it can read (or no file).
    static func video(_ path: String) -> Video? {
        let result = Run.output("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-count_packets", "-select_streams", "v:0", "-show_entries",
                                                     "stream=codec_name,width,height,nb_read_frames,nb_read_packets", "-of", "csv=p=0", path])
        let fields = result.output.split(separator: "\n").first?.split(separator: ",").map(String.init) ?? []
        guard result.status == 0, fields.count == 5, let width = Int(fields[1]), let height = Int(fields[2]),
              let frames = Int(fields[3]), let packets = Int(fields[4]) else { return nil }
        return Video(codec: fields[0], width: width, height: height, frames: frames, packets: packets)
    }
}

/// An MP4's top-level boxes, read from their headers (size and type), not by libavformat.
enum Boxes {
    struct Box {
        var type: String
        var offset: Int
        var size: Int
        /// Whether all of its bytes are in the file.
        var complete: Bool
    }

    static func top(_ data: Data) -> [Box] {
        let bytes = [UInt8](data)
        var boxes: [Box] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = bytes.count - offset }
            guard size >= 8 else { break }
            boxes.append(Box(type: type, offset: offset, size: size, complete: offset + size <= bytes.count))
            offset += size
        }
        return boxes
    }
}
