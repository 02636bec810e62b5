import Foundation
import Testing

/// A private HOME, workspace, outbox and store for running `recorder shoot` and `recorder post`.
struct PostSandbox {
    let root: String
    var extraEnvironment: [String: String] = [:]

    init() throws {
        root = try Tools.tempDirectory()
        for dir in ["home", "run", "config", "state", "data"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(dir)", withIntermediateDirectories: true)
        }
    }

    var environment: [String: String] {
        var env = ["HOME": "\(root)/home", "XDG_RUNTIME_DIR": "\(root)/run", "XDG_CONFIG_HOME": "\(root)/config",
                   "XDG_STATE_HOME": "\(root)/state", "XDG_DATA_HOME": "\(root)/data", "RECORDER_CONFIG": "",
                   "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
                   // (a test runner started by a systemd unit must not move the workspace or cache)
                   "STATE_DIRECTORY": "", "CACHE_DIRECTORY": ""]
        // RECORDER_TEST_RUN stays: it is how the test command finds processes a test left running.
        for key in ProcessInfo.processInfo.environment.keys where key.hasPrefix("RECORDER_") && key != "RECORDER_BIN" && key != "RECORDER_TEST_RUN" {
            env[key] = ""
        }
        return env.merging(extraEnvironment) { $1 }
    }

    var outbox: String { "\(root)/state/recorder/outbox" }
    var localStore: String { "\(root)/data/recorder/store" }
    var currentVideo: String { "\(root)/run/recorder/current/video.mp4" }

    @discardableResult
    func recorder(_ arguments: [String]) throws -> Tools.Output {
        try Tools.run("recorder", arguments, environment: environment)
    }

    func start(_ arguments: [String]) throws -> RunningProcess {
        try Tools.start("recorder", arguments, environment: environment)
    }

    /// A short test-pattern shot; returns the SHA-256 of its video.
    @discardableResult
    func shoot(seconds: Double = 1) throws -> String {
        let result = try recorder(["shoot", "--device", "testsrc", "--seconds", "\(seconds)", "--size", "320x240"])
        try #require(result.status == 0, "shoot failed: \(result.stderr)")
        return try sha256(of: currentVideo)
    }

    /// A shot of random noise encoded losslessly: about 11 MB, large enough for a multipart upload.
    @discardableResult
    func shootLarge() throws -> String {
        let y4m = "\(root)/noise.y4m"
        if !FileManager.default.fileExists(atPath: y4m) {
            let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                                "nullsrc=s=640x360:r=30,geq=lum='random(1)*255':cb=128:cr=128",
                                                "-frames:v", "30", "-pix_fmt", "yuv420p", y4m])
            try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        }
        let result = try recorder(["shoot", "--device", "y4m:\(y4m)", "--seconds", "5", "--size", "640x360",
                                   "--crf", "0", "--preset", "ultrafast"])
        try #require(result.status == 0, "shoot failed: \(result.stderr)")
        return try sha256(of: currentVideo)
    }

    /// Queued post folders, oldest first.
    func queued() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(outbox)/queue")) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// SHA-256 with coreutils, independent of the code under test.
func sha256(of path: String) throws -> String {
    let result = try Tools.run("sha256sum", [path])
    try #require(result.status == 0, "sha256sum \(path): \(result.stderr)")
    return String(result.stdout.prefix(64))
}

/// The `{"id": ...}` object a `--json` command printed last.
func jsonObject(_ text: String) throws -> [String: Any] {
    let line = try #require(text.split(separator: "\n").last(where: { $0.hasPrefix("{") }), "no JSON in: \(text)")
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}
