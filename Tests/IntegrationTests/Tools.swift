import Foundation
import Testing

/// Runs external programs for the tests: ffprobe/ffmpeg as independent readers, and the built `recorder`.
enum Tools {
    /// A file's stream durations by ffprobe (an independent reader): (video, audio or nil).
    static func streamDurations(_ path: String) throws -> (video: Double, audio: Double?) {
        let result = try run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", path])
        var video = 0.0, audio: Double?
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: ",")
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            if parts[0] == "video" { video = value } else if parts[0] == "audio" { audio = value }
        }
        return (video, audio)
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        let process = try start(executable, arguments, environment: environment)
        return try finish(process)
    }

    static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> RunningProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(of: executable))
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningProcess(process: process, out: out, err: err)
    }

    static func finish(_ running: RunningProcess) throws -> Output {
        let outData = running.out.fileHandleForReading.readDataToEndOfFile()
        let errData = running.err.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        return Output(status: running.process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Resolves a program on PATH, or the `recorder` binary built next to the tests.
    static func path(of executable: String) throws -> String {
        if executable.hasPrefix("/") { return executable }
        if executable == "recorder" { return try recorderBinary() }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ToolMissing(name: executable)
    }

    /// `RECORDER_BIN`, else the `recorder` in the same build folder as this test bundle.
    static func recorderBinary() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["RECORDER_BIN"] { return bin }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("recorder").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw ToolMissing(name: "recorder (build it with `swift build` or set RECORDER_BIN)")
    }

    /// A temp directory with a tmpfs of `size` mounted on it, or nil (with a recorded issue) when not root.
    static func smallFileSystem(size: String) throws -> String? {
        guard getuid() == 0 else {
            Issue.record("this test mounts a small tmpfs and needs root; run the README's test command as root (CI does)")
            return nil
        }
        let dir = try tempDirectory()
        try #require(try run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", dir]).status == 0)
        return dir
    }

    static func removeSmallFileSystem(_ dir: String) {
        _ = try? run("umount", [dir])
        try? FileManager.default.removeItem(atPath: dir)
    }

    static func tempDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "recorder-it-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

struct RunningProcess {
    let process: Process
    let out: Pipe
    let err: Pipe
}

struct ToolMissing: Error, CustomStringConvertible {
    var name: String
    var description: String { "required tool not found: \(name). Install it (the README's test command does)." }
}

/// What ffprobe, an independent reader, says about a video file.
struct Probe {
    var codec: String
    var width: Int
    var height: Int
    var pixelFormat: String
    var frames: Int
    var duration: Double
    /// Presentation times of the keyframes, in seconds.
    var keyframeTimes: [Double]

    init(_ path: String) throws {
        let stream = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                               "-show_entries", "stream=codec_name,width,height,pix_fmt,nb_read_frames:format=duration",
                                               "-of", "default=noprint_wrappers=1", path])
        guard stream.status == 0 else { throw ProbeFailed(path: path, stderr: stream.stderr) }
        var fields: [String: String] = [:]
        for line in stream.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        codec = fields["codec_name"] ?? ""
        width = Int(fields["width"] ?? "") ?? 0
        height = Int(fields["height"] ?? "") ?? 0
        pixelFormat = fields["pix_fmt"] ?? ""
        frames = Int(fields["nb_read_frames"] ?? "") ?? 0
        duration = Double(fields["duration"] ?? "") ?? 0
        let packets = try Tools.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                                                "-of", "csv=p=0", path])
        keyframeTimes = packets.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ",")
            guard parts.count == 2, parts[1].hasPrefix("K") else { return nil }
            return Double(parts[0])
        }.sorted()
    }

    /// Decodes every frame with ffmpeg; true when no decoding error is reported.
    static func decodesCleanly(_ path: String) throws -> Bool {
        let result = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        return result.status == 0 && result.stderr.isEmpty
    }
}

struct ProbeFailed: Error, CustomStringConvertible {
    var path: String
    var stderr: String
    var description: String { "ffprobe could not read \(path): \(stderr)" }
}
