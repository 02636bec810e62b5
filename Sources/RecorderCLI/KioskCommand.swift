import ArgumentParser
import FoundationEssentials
import KioskService
import Logging
import Settings
import SystemSupport
import KioskHTTP
import KioskWords
import KioskState
import Failures

/// `recorder kiosk`: the long-running kiosk service with its page and control API.
struct KioskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Run the kiosk service: a page and an HTTP API to shoot and post, with uploads in the background.",
        discussion: """
        Open http://127.0.0.1:8080/ (kiosk.listen) in a browser. Listening beyond loopback needs the operator's \
        token (kiosk.token_file), and the booth's screen may have its own, which can only drive the guest page \
        (kiosk.booth_token_file). Under systemd (Type=notify) it reports READY, STATUS and WATCHDOG; SIGTERM finishes \
        a shot under way, keeps it, and exits 0. --end-sessions logs every browser out (the booth's screen and \
        the operator's alike), whether the kiosk is running or not, and exits.
        """)

    @Option(name: .long, help: ArgumentHelp("Address and port to listen on (kiosk.listen, default 127.0.0.1:8080).", valueName: "host:port"))
    var listen: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Camera (kiosk.device): auto, a /dev path, a by-id name, or testsrc.", valueName: "device"))
    var device: String?

    @Option(name: .long, help: ArgumentHelp(
        "Sound (audio.device): auto (the camera's own microphone; the test beep with the test pattern), none, beep (the test beep), or an ALSA capture device such as hw:CARD=C920,DEV=0 (`recorder devices` lists them).",
        valueName: "device"))
    var audio: String?

    @Option(name: [.customShort("t"), .long], parsing: .unconditional,
            help: ArgumentHelp("Shot length in seconds (kiosk.seconds, 1-600, default 15).", valueName: "seconds"),
            transform: { text in try Seconds.parse(text, limit: KioskSettings.maximumSeconds) })
    var seconds: Seconds?

    @Option(name: .long, help: "Countdown before a shot, in seconds (kiosk.countdown_seconds, default 3).")
    var countdown: Int?

    @Option(name: .customLong("token-file"), help: ArgumentHelp("File with the operator's token (kiosk.token_file).", valueName: "file"))
    var tokenFile: String?

    @Option(name: .customLong("booth-token-file"), help: ArgumentHelp("File with the booth's token (kiosk.booth_token_file).", valueName: "file"))
    var boothTokenFile: String?

    @Option(name: .long, help: ArgumentHelp("Shot workspace directory (workspace).", valueName: "dir"))
    var workspace: String?

    @Flag(name: .shortAndLong, help: "Log debug messages too.")
    var verbose = false

    @Flag(name: .customLong("end-sessions"),
          help: "End every browser session (kiosk.state_dir): every browser must log in again at /login, the booth's screen too; then exit. A running kiosk notices within a second.")
    var endSessions = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let configuration = try RecorderConfiguration(flags: try kioskFlags(), configFile: store.config, settings: .withKiosk)
        if endSessions {
            let directory = KioskSettings.stateDirectory(configuration)
            let ended = try SessionStore.endAll(directory: directory)
            print("ended \(ended) session\(ended == 1 ? "" : "s") (\(directory)): every browser logs in again at /login, the booth's screen with the booth's token")
            return
        }
        // The one judge of a configuration (`recorder config check`, doctor and the operator page
        // use it too): the first thing it refuses stops the kiosk here, with the key to change.
        if let refused = ConfigurationCheck.first(configuration) { throw refused }
        let settings = try KioskSettings(configuration)
        // Guests' mail: nil while mail.smtp_url is empty.
        let mail = try ConfigurationCheck.mailSettings(configuration)
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = JournalLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let kiosk = try KioskServices(settings: settings, configuration: configuration, logger: Logger(label: "recorder"), mail: mail)
        guard try await KioskDaemon(kiosk: kiosk).run() == .restart else { return }
        // The operator page's restart: this program again, in place (the same pid for systemd).
        // It returns only when that failed; the exit status then has systemd's Restart= start it.
        let failure = ProcessImage.restart(arguments: CommandLine.arguments)
        throw RecorderError.kiosk(.restartFailed(errno: failure.code))
    }

    /// The store flags plus this command's own, as configuration keys.
    func kioskFlags() throws(RecorderError) -> [String: String] {
        var flags = try store.flags()
        let named: [(String, String?)] = [("kiosk.listen", listen), ("kiosk.device", device), ("kiosk.seconds", seconds.map { "\($0.value)" }),
                                          ("kiosk.countdown_seconds", countdown.map(String.init)), ("kiosk.token_file", tokenFile),
                                          ("kiosk.booth_token_file", boothTokenFile), ("workspace", workspace),
                                          ("audio.device", audio)]
        for case let (key, value?) in named { flags[key] = value }
        return flags
    }
}
