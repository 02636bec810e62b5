import ArgumentParser
import FoundationEssentials
import Settings
import Shooting
import Publishing
import Library
import SystemSupport
import Failures
import Posting

/// `recorder reel`: the event's posts in one video for its hosts.
struct ReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Make the event's highlight reel: its posts in one MP4, oldest first, each after a title card, all at one loudness.",
        discussion: """
        Each post is fetched through the cache and checked against the SHA-256 in its metadata, then measured (EBU R128, \
        libavfilter's ebur128) and brought to --loudness; a post's gain is held down so its true peak stays at or below -1 dBTP. \
        Before each post a card shows its caption, the question it answers (kiosk.prompts) and when it was made, in this machine's \
        time zone. Pictures are scaled into the reel's size with bars where the aspect differs; posts without sound are silence. \
        The reel is encoded with shoot.preset and shoot.crf. Posts the operator hid are left out unless --hidden yes. \
        A post that cannot be read is named and left out (exit 65); the reel appears under its name only when whole, and an \
        existing file is never replaced (exit 73).
        """)

    enum Hidden: String, ExpressibleByArgument, CaseIterable {
        case no, yes
    }

    @Option(name: .long, help: ArgumentHelp("Posts made at or after this: a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18:00:00Z).",
                                            valueName: "day"))
    var since: Moment

    @Option(name: .long, help: ArgumentHelp("Only the answers to this question, as kiosk.prompts has it (case aside).", valueName: "question"))
    var prompt: String?

    @Option(name: .long, help: "Whether posts the operator hid go in too.")
    var hidden: Hidden = .no

    @Option(name: .shortAndLong, help: ArgumentHelp("The new file (default: recorder-reel-DAY.mp4).", valueName: "reel.mp4"))
    var output: String?

    // (numbers with `parsing: .unconditional`: a loudness is negative, and "-16" must reach its check)
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The reel's picture size (default: the first post's, at most 1920x1080).", valueName: "WxH"))
    var size: PictureSize?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The reel's frames per second, 1 to 60 (default: the first post's).", valueName: "n"),
            transform: { text throws(ValueError) in try WholeNumber.parse(text, 1...60, "the reel's frames per second") })
    var fps: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How long each title card shows, 0.5 to 10 seconds.", valueName: "seconds"))
    var cardSeconds: Double = 2.5

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Fade each card and post in and out over this many seconds, through the cards' colour, 0 to 2 (default 0: cuts).", valueName: "seconds"))
    var fade: Double = 0

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The loudness every post is brought to, in LUFS: -16 for phones and laptops, -23 for broadcast.", valueName: "LUFS"))
    var loudness: Double = -16

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var format: OutputOptions

    func run() throws { try execute() }

    private func execute() throws(RecorderError) {
        let configuration = try store.configuration()
        let backend = try configuration.makeBackend()
        var options = HighlightReel.Options(since: since.date)
        options.prompt = prompt
        options.includeHidden = hidden == .yes
        options.size = size.map { ($0.width, $0.height) }
        options.frameRate = fps
        options.cardSeconds = cardSeconds
        options.fadeSeconds = fade
        options.loudness = loudness
        options.encoder = try ShotRequest.encoderSettings(configuration)
        let target = output ?? "recorder-reel-" + String(RFC3339.string(since.date).prefix(10)) + ".mp4"
        let reel = HighlightReel(feed: PostFeed(store: backend), cache: try configuration.onePassVideoCache())
        let report = try reel.make(into: target, options: options) { step in
            if !quiet && !format.json { printError(step) }
        }
        if format.json {
            printJSON(report, answersFailure: !report.skipped.isEmpty)
        } else {
            print("made \(target): \(report.posts.count) post(s) made since \(report.since), \(String(cFormat: "%.1f", report.seconds)) s at \(report.width)x\(report.height) \(report.frameRate) fps, loudness \(report.loudnessTarget.formatted) LUFS")
        }
        if !report.skipped.isEmpty {
            throw RecorderError(CLIFailure.leftOutOfReel(report.skipped))
        }
    }
}
