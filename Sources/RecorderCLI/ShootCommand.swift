import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import MediaEncoder
import RecorderCore
import Synchronization
import SystemSupport
import VideoCapture

/// `recorder shoot`: record one shot into the workspace.
struct ShootCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoot",
        abstract: "Record a shot from a camera into the shot workspace.",
        discussion: """
        The shot replaces the previous one only when it is complete. Ctrl-C (or SIGTERM) stops early and keeps a \
        valid, shorter file; a second Ctrl-C abandons it and keeps the previous shot.
        """)

    @Option(name: .long, help: "How long to record, in seconds.")
    var seconds: Double = 15

    @Option(name: .long, help: ArgumentHelp(
        "Camera: a /dev/video path, a /dev/v4l/by-id name, an index from `recorder devices`, 'testsrc' for the built-in test pattern, or y4m:FILE. Default: the first camera, else the test pattern.",
        valueName: "device"))
    var device: String?

    @Option(name: .long, help: ArgumentHelp("Picture size, e.g. 1280x720 (default 1280x720, or the closest the camera offers).", valueName: "WxH"))
    var size: String?

    @Option(name: .long, help: "Frames per second (default 30, or the closest the camera offers).")
    var fps: Double?

    @Option(name: .long, help: "Camera pixel format: auto (cheapest for the CPU), yuyv, uyvy, nv12, yu12, rgb24, grey, mjpeg, h264, ...")
    var format: String = "auto"

    @Option(name: .long, help: "Average bitrate in kbit/s (default: constant quality, --crf).")
    var bitrate: Int?

    @Option(name: .long, help: "x264 preset: ultrafast ... veryslow.")
    var preset: String = "veryfast"

    @Option(name: .long, help: "x264 constant rate factor, 0-51 (lower is better).")
    var crf: Int = 23

    @Option(name: .long, help: "Seconds without a frame before the camera counts as stalled.")
    var stallTimeout: Double = 5

    @Option(name: .customLong("min-seconds"), help: "A shot stopped early (Ctrl-C) with less than this is discarded and the previous shot kept.")
    var minimumSeconds: Double = 1

    @OptionGroup var workspaceOptions: WorkspaceOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let size, FrameSize(parsing: size) == nil {
            throw ValidationError("--size must look like WIDTHxHEIGHT, e.g. 1280x720 (got '\(size)').")
        }
        if format != "auto", PixelFormat(name: format) == nil {
            let names = PixelFormat.allCases.map(\.name).joined(separator: ", ")
            throw ValidationError("unknown --format '\(format)'. Use auto or one of: \(names).")
        }
        if !(minimumSeconds >= 0 && minimumSeconds <= 600) {
            throw ValidationError("--min-seconds must be from 0 to 600 seconds (got \(minimumSeconds)).")
        }
        if !(stallTimeout > 0 && stallTimeout <= 600) {
            throw ValidationError("--stall-timeout must be between 0 and 600 seconds.")
        }
    }

    var request: ShotRequest {
        ShotRequest(
            device: device, seconds: seconds,
            capture: CaptureRequest(pixelFormat: format == "auto" ? nil : PixelFormat(name: format),
                                    size: size.flatMap(FrameSize.init(parsing:)),
                                    frameRate: fps.map { FrameRate(Int(($0 * 1000).rounded()), 1000).reduced }),
            encoder: EncoderSettings(preset: preset, crf: crf, bitrateKbps: bitrate),
            stallTimeout: stallTimeout, minimumSeconds: minimumSeconds)
    }

    func run() async throws {
        // A clip cut off by a kill or power cut is recovered first and kept beside the current
        // shot (never replaced unseen, never lost), and the shot asked for is still recorded, so a
        // script sees the exit status of the shot it asked for.
        let recovery = workspaceOptions.shotWorkspace.recoverInterrupted(besideCurrent: true)
        for note in recovery.notes { printError("recorder: note: \(note)") }
        remindOfKeptShots(in: workspaceOptions.shotWorkspace, except: recovery.kept)
        let manager = CameraManager(workspace: workspaceOptions.shotWorkspace)
        // Set by the signal handler itself, so a Ctrl-C during start-up is not lost on the way.
        let stop = StopSignal()
        let interrupts = InterruptHandler(stop: stop) { await manager.stop() }
        defer { interrupts.cancel() }
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1 && !output.json)
        do {
            let result = try await manager.shoot(
                request, stop: stop,
                notice: { printError("recorder: note: \($0)") },
                progress: { progress.update($0) })
            progress.finish()
            report(result)
            if let full = result.diskFull { throw full }
            if let lost = result.cameraLost {
                throw RecorderError("the shot was kept, but \(lost.message)", exitStatus: lost.exitStatus)
            }
        } catch {
            progress.finish()
            throw error
        }
    }

    private func report(_ result: ShotResult) { report(result.shot) }

    private func report(_ shot: Shot) {
        if output.json {
            printJSON(shot)
            return
        }
        print(shot.videoPath)
        let duration = String(cFormat: "%.2f", shot.durationSeconds)
        print("  \(shot.frames) frames (\(shot.framesDropped) dropped), \(duration) s, \(shot.width)x\(shot.height) \(shot.codec) (\(shot.encoder)), \(ByteCount.human(shot.byteSize))")
        print("  input \(shot.inputFormat) at \(String(cFormat: "%g", shot.frameRate)) fps from \(shot.source)")
        if let ended = shot.endedEarly { print("  ended early: \(ended)") }
    }
}

extension FrameRate {
    /// The same rate with the fraction reduced (30000/1000 becomes 30).
    var reduced: FrameRate {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = max(gcd(numerator, denominator), 1)
        return FrameRate(numerator / g, denominator / g)
    }
}

/// First SIGINT/SIGTERM: stop and keep a shorter shot. Second: abandon it at once.
final class InterruptHandler {
    private final class Count: Sendable { let value = Atomic<Int>(0) }
    private let sources: [any DispatchSourceSignal]

    init(stop flag: StopSignal, stop: @escaping @Sendable () async -> Void) {
        var sources: [any DispatchSourceSignal] = []
        let count = Count()
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if count.value.add(1, ordering: .relaxed).newValue == 1 {
                    printError("\nrecorder: stopping; finishing the shot (press Ctrl-C again to abandon it)")
                    flag.set()
                    Task { await stop() }
                } else {
                    printError("recorder: abandoned; the previous shot was kept")
                    _exit(SysExit.interrupted.rawValue)
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// A live "elapsed/total, fps, drops" line on a terminal, redrawn a few times a second.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let lastDraw = Atomic<Int64>(0)

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: ShotProgress) {
        guard enabled else { return }
        let now = MonotonicClock.nowMicroseconds()
        guard now - lastDraw.load(ordering: .relaxed) >= 200_000 else { return }
        lastDraw.store(now, ordering: .relaxed)
        let line = String(cFormat: "\r  %5.1f/%.1f s  %5.1f fps  %ld frames  %ld dropped ",
                          p.elapsedSeconds, p.totalSeconds, p.framesPerSecond, p.frames, p.dropped)
        Descriptors.printError(line)
    }

    func finish() {
        if enabled && lastDraw.load(ordering: .relaxed) != 0 { Descriptors.printError("\n") }
    }
}
