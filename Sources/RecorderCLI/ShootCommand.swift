import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import Settings
import Shooting
import Synchronization
import SystemSupport
import Failures
import ShotValues
import KioskWords

/// `recorder shoot`: record one shot into the workspace.
struct ShootCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoot",
        abstract: "Record a shot from a camera into the shot workspace.",
        discussion: """
        The shot replaces the previous one only when it is complete. Ctrl-C (or SIGTERM) stops early and keeps a \
        valid, shorter file; a second Ctrl-C abandons it and keeps the previous shot.
        """)

    @Option(name: [.customShort("t"), .long], parsing: .unconditional,
            help: ArgumentHelp("How long to record, in seconds (shoot.seconds, default 15).", valueName: "seconds"),
            transform: Seconds.shot)
    var seconds: Seconds?

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Camera (shoot.device): a /dev/video path, a /dev/v4l/by-id name, an index from `recorder devices`, 'testsrc' for the built-in test pattern, or y4m:FILE. Default: the first camera, else the test pattern.",
        valueName: "device"),
            // Completes the cameras this machine has now, and the built-in sources.
            completion: .custom { _, _, _ in DeviceInventory.cameraNodes() + ["testsrc", "y4m:"] })
    var device: String?

    @Option(name: .long, help: ArgumentHelp(
        "Sound (audio.device): auto (the camera's own microphone; the test beep with the test pattern), none, beep (the test beep), or an ALSA capture device such as hw:CARD=C920,DEV=0 (`recorder devices` lists them).",
        valueName: "device"),
            // Completes the microphones this machine has now, and the built-in choices.
            completion: .custom { _, _, _ in ["auto", "none", "beep"] + DeviceInventory.microphoneNames() })
    var audio: String?

    @Option(name: .shortAndLong, parsing: .unconditional,
            help: ArgumentHelp("Picture size (shoot.size), e.g. 1280x720 (default 1280x720, or the closest the camera offers).", valueName: "WxH"),
            transform: PictureSize.parse)
    var size: PictureSize?

    @Option(name: [.customShort("r"), .long], parsing: .unconditional,
            help: ArgumentHelp("Frames per second (shoot.fps; default 30, or the closest the camera offers).", valueName: "fps"),
            transform: FramesPerSecond.parse)
    var fps: FramesPerSecond?

    @Option(name: .long, help: "Camera pixel format (shoot.format): auto (cheapest for the CPU), yuyv, uyvy, nv12, yu12, rgb24, grey, mjpeg, h264, ...",
            completion: .list(["auto"] + ShotRequest.pixelFormatNames))
    var format: String?

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Average bitrate in kbit/s, 50-200000 (shoot.bitrate; default: constant quality, --crf).", valueName: "kbps"),
            transform: WholeNumber.bitrate)
    var bitrate: Int?

    @Option(name: .long, help: "x264 preset (shoot.preset): ultrafast ... veryslow (default veryfast).",
            completion: .list(ShotRequest.presets))
    var preset: String?

    @Option(name: .long, help: ArgumentHelp("A branding frame: a PNG with transparency, scaled to the shot (aspect kept) and blended onto every picture (shoot.overlay).",
                                            valueName: "frame.png"),
            completion: .file(extensions: ["png"]))
    var overlay: String?

    @Option(name: .long, help: ArgumentHelp(
        "What the shot is made into (shoot.effect): none; boomerang (a take of effect.boomerang_seconds, or --seconds 1-3, played forward then backward, looped to at least 3 s); slowmo (recorded at the camera's fastest rate, played at 30 fps). The take is kept beside the effect and posted with it.",
        valueName: "effect"),
            completion: .list(ClipEffect.names))
    var effect: String?

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("x264 constant rate factor, 0-51, lower is better (shoot.crf, default 23).", valueName: "crf"),
            transform: WholeNumber.crf)
    var crf: Int?

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Seconds without a frame before the camera counts as stalled (more than 0, at most 600; default 5).", valueName: "seconds"),
            transform: Seconds.stall)
    var stallTimeout = Seconds(5)

    @Option(name: .customLong("min-seconds"), parsing: .unconditional,
            help: ArgumentHelp("A shot stopped early (Ctrl-C) with less than this is discarded and the previous shot kept (shoot.min_seconds, 0-600, default 1).", valueName: "seconds"),
            transform: Seconds.minimum)
    var minimumSeconds: Seconds?

    @Flag(name: .shortAndLong, help: "No progress line and no notes: only the result (and errors).")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print each shot setting and where it came from (flag, environment, file:line, default).")
    var verbose = false

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var workspaceOptions: WorkspaceOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let format, format != "auto", !ShotRequest.isPixelFormat(format) {
            let names = ShotRequest.pixelFormatNames.joined(separator: ", ")
            throw ValidationError("unknown --format '\(format)'. Use auto or one of: \(names).")
        }
        if let preset, !ShotRequest.presets.contains(preset) {
            throw ValidationError("unknown --preset '\(preset)'. Use one of: \(ShotRequest.presets.joined(separator: ", ")).")
        }
        if let effect, ClipEffect(rawValue: effect) == nil {
            throw ValidationError("unknown --effect '\(effect)'. Use one of: \(ClipEffect.names.joined(separator: ", ")).")
        }
        if quiet && verbose { throw ValidationError("use -q (--quiet) or -v (--verbose), not both.") }
        if crf != nil && bitrate != nil {
            throw ValidationError("--crf (constant quality) and --bitrate (an average rate) are two ways to set the quality: give one, not both.")
        }
    }

    /// Options given on the command line that the chosen source ignores, each with why, so none is
    /// silently accepted.
    func ignoredOptions(for request: ShotRequest) -> [String] {
        var notes: [String] = []
        let device = request.device ?? ""
        let builtIn = device == "testsrc" ? "the test pattern" : (device.hasPrefix("y4m:") || device.hasSuffix(".y4m")) ? "a Y4M file" : nil
        if let builtIn, let format, format != "auto" {
            notes.append("--format \(format) does nothing for \(builtIn): it has its own picture format")
        }
        if builtIn == "a Y4M file", fps != nil {
            notes.append("--fps does nothing for a Y4M file: its frame rate is in its header")
        }
        if request.copiesCameraH264 {
            let encoding = [crf != nil ? "--crf" : nil, bitrate != nil ? "--bitrate" : nil, preset != nil ? "--preset" : nil].compactMap { $0 }
            if !encoding.isEmpty {
                notes.append("\(encoding.joined(separator: ", ")) \(encoding.count == 1 ? "does" : "do") nothing with --format h264: the camera's H.264 is copied as it is, not encoded")
            }
        }
        return notes
    }

    /// The shot asked for: each setting from its flag, else the configuration (environment, then
    /// file: `shoot.*`), else the default.
    func request(_ configuration: RecorderConfiguration) throws(RecorderError) -> ShotRequest {
        var request = try ShotRequest.configured(configuration)
        if let device { request.device = device }
        if let seconds { request.seconds = seconds.value }
        if let format { request.pixelFormatName = format == "auto" ? nil : format }
        if let size { request.size = size }
        if let fps { request.setFramesPerSecond(fps.value) }
        if let preset { request.preset = preset }
        if let crf { request.crf = crf }
        if let bitrate { request.bitrateKbps = bitrate }
        if let overlay { try request.setOverlay(overlay, origin: "--overlay") }
        if let minimumSeconds { request.minimumSeconds = minimumSeconds.value }
        if let audio { request.audio = AudioChoice(audio) }
        if let effect = effect.flatMap(ClipEffect.init(rawValue:)) { request.choose(effect) }
        // A boomerang's take is --seconds when it is given (1-3 s), else effect.boomerang_seconds.
        if let seconds, request.effect == .boomerang { request.seconds = seconds.value }
        request.stallTimeout = stallTimeout.value
        return request
    }

    /// Where each shot setting came from, for --verbose.
    private func origins(_ configuration: RecorderConfiguration) -> [String] {
        let flags: [(String, Bool)] = [("shoot.device", device != nil), ("shoot.seconds", seconds != nil), ("shoot.size", size != nil),
                                       ("shoot.fps", fps != nil), ("shoot.format", format != nil), ("shoot.preset", preset != nil),
                                       ("shoot.crf", crf != nil), ("shoot.bitrate", bitrate != nil), ("shoot.min_seconds", minimumSeconds != nil), ("audio.device", audio != nil),
                                       ("shoot.effect", effect != nil)]
        return flags.map { key, flagged in
            "recorder: \(key) from \(flagged ? "flag" : configuration.origins[key] ?? "default")"
        } + ["recorder: workspace \(workspaceOptions.shotWorkspace(configuration).root) from \(workspaceOptions.workspace != nil ? "flag" : configuration.origins["workspace"] ?? "default")"]
    }

    func run() async throws {
        let configuration = try configOptions.configuration()
        let shotRequest = try request(configuration)
        let workspace = workspaceOptions.shotWorkspace(configuration)
        if verbose { for line in origins(configuration) { printError(line) } }
        let note: @Sendable (String) -> Void = { [quiet] note in if !quiet { printError("recorder: note: \(note)") } }
        for line in ignoredOptions(for: shotRequest) { note(line) }
        // A clip cut off by a kill or power cut is recovered first and kept beside the current
        // shot (never replaced unseen, never lost), and the shot asked for is still recorded, so a
        // script sees the exit status of the shot it asked for.
        let recovery = workspace.recoverInterrupted(besideCurrent: true)
        for line in recovery.notes { note(CLIWords.note(line)) }
        // (every kept shot, those just recovered too: how to post one is the CLI's to say)
        if !quiet { remindOfKeptShots(in: workspace) }
        let manager = CameraManager(workspace: workspace)
        // Set by the signal handler itself, so a Ctrl-C during start-up is not lost on the way.
        let stop = StopSignal()
        let interrupts = await InterruptHandler(stop: stop) { await manager.stop() }
        defer { interrupts.cancel() }
        let progress = ProgressLine(enabled: Posix.isTerminal(STDERR_FILENO) && !output.json && !quiet)
        do {
            let result = try await manager.shoot(
                shotRequest, stop: stop,
                notice: { note(CLIWords.note($0)) },
                progress: { progress.update($0) })
            progress.finish()
            report(result, in: workspace)
            if let full = result.diskFull { throw full }
            if let lost = result.cameraLost {
                throw RecorderError(CLIFailure.shotKept(lost))
            }
        } catch {
            progress.finish()
            throw error
        }
    }

    private func report(_ result: ShotResult, in workspace: ShotWorkspace) { report(result.shot, in: workspace) }

    private func report(_ shot: Shot, in workspace: ShotWorkspace) {
        if output.json {
            printJSON(ShotDocument(shot: shot, keptShots: workspace.keptShots().map(\.id)))
            return
        }
        print(shot.videoPath)
        let duration = String(cFormat: "%.2f", shot.durationSeconds)
        print("  \(shot.frames) frames (\(shot.framesDropped) dropped), \(duration) s, \(shot.width)x\(shot.height) \(shot.codec) (\(shot.encoder)), \(ByteCount.human(shot.byteSize))")
        // (the camera's rate: an effect's take, when the shot is its effect)
        print("  input \(shot.inputFormat) at \(String(cFormat: "%g", shot.effect?.original?.frameRate ?? shot.frameRate)) fps from \(shot.source)")
        if let audio = shot.audio {
            let channels = audio.channels == 1 ? "mono" : audio.channels == 2 ? "stereo" : "\(audio.channels) channels"
            var line = "  sound \(audio.codec) \(audio.sampleRate) Hz \(channels) at \(audio.bitRate / 1000) kb/s from \(audio.source)"
            if audio.overruns > 0 { line += ", \(audio.overruns) overrun(s) filled with silence" }
            print(line)
            if let ended = audio.endedEarly {
                print("  sound stopped at \(String(cFormat: "%.1f", audio.endedAtSeconds ?? 0)) s: \(OperatorWords.audioStop(ended))")
            }
        } else {
            print("  no sound")
        }
        if let ended = shot.endedEarly { print("  ended early: " + CLIWords.ending(ended)) }
        if let loudness = shot.audio?.loudness { print("  " + CLIWords.loudness(loudness)) }
        if let effect = shot.effect { print("  " + CLIWords.effect(effect, shot: shot)) }
    }
}

/// `shoot --json`: the shot's fields, and `keptShots`: the recordings kept beside it and not
/// posted yet (`recorder post --shot ID`), oldest first.
struct ShotDocument: Encodable {
    var shot: Shot
    var keptShots: [String]

    private enum Key: String, CodingKey { case keptShots }

    func encode(to encoder: any Encoder) throws {
        try shot.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(keptShots, forKey: .keptShots)
    }
}
