import FoundationEssentials
import Glibc
package import Settings
package import ShotValues
package import Shooting
import Publishing
import Fleet
import SystemSupport
package import TriggerInput
package import KioskWords
package import Failures
import Posting

/// The kiosk's own settings, read from the same configuration (flags > environment > file) as
/// every other command.
package struct KioskSettings: Sendable {
    package static let defaultListen = "127.0.0.1:8080"
    /// The longest shot a kiosk request may ask for.
    package static let maximumSeconds = 600.0

    package var host: String
    package var port: Int
    /// `kiosk.proxy_socket`: the Unix socket the reverse proxy alone uses; nil when off.
    package var proxySocket: String?
    /// nil: the first camera, else the test pattern.
    package var device: String?
    package var seconds: Double
    package var countdown: Int
    /// The operator's token: every route (the booth's, moderation, the feed, metrics). Required on
    /// every API request when set; always set when listening beyond loopback.
    package var token: String?
    /// The booth's token: the guest page's routes only. nil: the booth uses the operator's.
    package var boothToken: String?
    /// Connections kept open at once from other machines (loopback is not counted), and from one address.
    package var maxConnections = 512
    package var maxConnectionsPerClient = 32
    /// Guests' mails queued at most in any one minute and any one hour, kiosk-wide.
    package var mailPerMinute = 20
    package var mailPerHour = 200
    package var workspace: ShotWorkspace
    /// Host names (beyond the listen address, localhost, this machine's name and IP literals) the
    /// page and API answer to: `kiosk.hosts`. Any other Host is refused (DNS rebinding).
    package var hosts: [String]
    /// The shots' sound (`audio.device`).
    package var audio: AudioChoice
    /// What the guest page needs: `kiosk.review_seconds`, `kiosk.review_unposted`,
    /// `kiosk.language`, `kiosk.trigger_key`, `kiosk.attract_seconds`, `kiosk.countdown_sound`.
    package var booth = KioskStatus.Booth(reviewSeconds: 30, reviewUnposted: "keep", language: "en", triggerKey: nil)
    /// `kiosk.consent`: the text a guest agrees to before a shot starts; nil when off.
    package var consent: ConsentText?
    /// `kiosk.prompts`: the questions for the guests; nil for none. `kiosk.prompt_seconds`: each one's time.
    package var prompts: Prompts?
    package var promptSeconds = 8.0
    /// `kiosk.effects`: the effects a guest chooses from; empty: none offered, every shot is `shot.effect`.
    package var effects: [ClipEffect] = []
    /// `kiosk.wifi_*`: the booth's own Wi-Fi, for the thank-you screen's first code; nil for none.
    package var wifi: WifiNetwork?
    /// `kiosk.on_state`: an executable run with each new state as its argument.
    package var stateHook: String?
    /// `kiosk.trigger`: the booth's button, which recorder reads itself; nil for none.
    package var trigger: TriggerChoice?
    /// What a shot is made like beyond its camera and length: `shoot.size`, `shoot.fps`,
    /// `shoot.format`, `shoot.preset`, `shoot.crf`, `shoot.bitrate`, `shoot.min_seconds`, `audio.*`.
    package var shot = ShotRequest(seconds: 15)
    /// `kiosk.preview_idle_seconds`: the live preview lets the camera go this long after the last
    /// viewer.
    package var previewIdleSeconds = 10.0
    /// `kiosk.state_dir`: the session key and sessions, and the share links' delete claims.
    /// The event's name (`RecorderConfiguration.eventName`), which the share page names; empty: none.
    package var eventName = ""
    package var stateDirectory = ""
    /// What tells retention whether the clock is synchronised (a test gives its own).
    package var timedatectl = "/usr/bin/timedatectl"
    /// `fleet.heartbeat_seconds`: how often the kiosk writes its heartbeat into the store.
    package var heartbeatSeconds = 60

    package init(host: String = "127.0.0.1", port: Int = 8080, device: String? = nil, seconds: Double = 15,
                countdown: Int = 3, token: String? = nil, boothToken: String? = nil, workspace: ShotWorkspace, hosts: [String] = [],
                audio: AudioChoice = .auto) {
        self.hosts = hosts
        self.audio = audio
        self.host = host
        self.port = port
        self.device = device
        self.seconds = seconds
        self.countdown = countdown
        self.token = token
        self.boothToken = boothToken
        self.workspace = workspace
    }

    /// Reads `kiosk.*` and `workspace`; refuses a non-loopback address without a token.
    package init(_ configuration: RecorderConfiguration) throws(RecorderError) {
        let values = configuration.values
        let listen = values["kiosk.listen"] ?? Self.defaultListen
        guard let (host, port) = RecorderConfiguration.parseListen(listen) else {
            throw .configuration(configuration.origin("kiosk.listen"), .badValue(key: "kiosk.listen", value: listen, rule: .listen))
        }
        self.host = host
        self.port = port
        proxySocket = try Self.readProxySocket(configuration)
        let device = values["kiosk.device"]
        self.device = (device == nil || device == "auto" || device == "") ? nil : device
        seconds = try configuration.number("kiosk.seconds")
        shot = try ShotRequest.configured(configuration)
        // The intro and outro every guest's post gets: a bad one stops the kiosk at its start,
        // named, not each guest's post later.
        try PostBookends.configured(configuration).check()
        previewIdleSeconds = try configuration.number("kiosk.preview_idle_seconds")
        heartbeatSeconds = try configuration.heartbeatSeconds
        audio = AudioChoice(configuration.text("audio.device") ?? "auto")
        countdown = Int(try configuration.number("kiosk.countdown_seconds"))
        booth = KioskStatus.Booth(reviewSeconds: Int(try configuration.number("kiosk.review_seconds")),
                                  reviewUnposted: configuration.text("kiosk.review_unposted") ?? "keep",
                                  language: configuration.text("kiosk.language") ?? "en",
                                  triggerKey: configuration.text("kiosk.trigger_key").flatMap { $0.isEmpty ? nil : $0 },
                                  attractSeconds: Int(try configuration.number("kiosk.attract_seconds")),
                                  countdownSound: configuration.text("kiosk.countdown_sound") == "on")
        eventName = configuration.eventName
        effects = Setting.list(configuration.text("kiosk.effects") ?? "").compactMap(ClipEffect.init(rawValue:))
        booth.effects = effects.map(\.rawValue)
        booth.effect = (effects.first ?? shot.effect).rawValue
        wifi = try Self.readWifi(configuration)
        booth.wifi = wifi.map { KioskStatus.Wifi(name: $0.name, password: $0.password) }
        consent = try Self.readConsent(configuration, language: booth.language)
        prompts = try Self.readPrompts(configuration)
        promptSeconds = try configuration.number("kiosk.prompt_seconds")
        stateHook = try Self.readHook(configuration)
        trigger = try Self.readTrigger(configuration)
        workspace = ShotWorkspace(root: configuration.workspaceDirectory)
        stateDirectory = Self.stateDirectory(configuration)
        (token, boothToken) = try Self.readTokens(configuration)
        maxConnections = Int(try configuration.number("kiosk.max_connections"))
        maxConnectionsPerClient = Int(try configuration.number("kiosk.max_connections_per_client"))
        mailPerMinute = Int(try configuration.number("kiosk.mail_per_minute"))
        mailPerHour = Int(try configuration.number("kiosk.mail_per_hour"))
        // As a Host header is compared: lower case, no port, no trailing dot.
        hosts = (values["kiosk.hosts"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map { entry in
            var name = Substring(entry.lowercased())
            if !name.hasPrefix("["), let colon = name.lastIndex(of: ":") { name = name[..<colon] }
            while name.hasSuffix(".") { name = name.dropLast() }
            return String(name)
        }
        if token == nil && !Self.isLoopback(host) {
            throw .kiosk(.exposedWithoutToken(listen: listen))
        }
    }

    /// `kiosk.on_state`: nil, or an executable given by its full path.
    static func readHook(_ configuration: RecorderConfiguration) throws(RecorderError) -> String? {
        guard let hook = configuration.text("kiosk.on_state"), !hook.isEmpty else { return nil }
        guard hook.hasPrefix("/"), Posix.allows(hook, X_OK) else {
            throw .kiosk(.hookNotExecutable(path: hook, origin: configuration.origin("kiosk.on_state")))
        }
        return hook
    }

    /// `kiosk.trigger` and `kiosk.trigger_match`: nil for none, a device's path, or auto with words.
    static func readTrigger(_ configuration: RecorderConfiguration) throws(RecorderError) -> TriggerChoice? {
        let trigger = configuration.text("kiosk.trigger") ?? ""
        if !trigger.isEmpty, trigger != "auto", trigger != "none", !trigger.hasPrefix("/") {
            throw .kiosk(.triggerNotAPath(trigger, origin: configuration.origin("kiosk.trigger")))
        }
        let choice = TriggerChoice(setting: trigger, match: configuration.text("kiosk.trigger_match") ?? "")
        if case .auto(let words)? = choice, words.isEmpty {
            throw .kiosk(.triggerWithoutWords(origin: configuration.origin("kiosk.trigger_match")))
        }
        return choice
    }

    /// The operator's token and the booth's, each refused when weak or shared; never the same, and
    /// no booth's without an operator's.
    static func readTokens(_ configuration: RecorderConfiguration) throws(RecorderError) -> (String?, String?) {
        let token = try readToken(configuration, key: "kiosk.token", file: "kiosk.token_file", role: "operator")
        let boothToken = try readToken(configuration, key: "kiosk.booth_token", file: "kiosk.booth_token_file", role: "booth")
        if let token, let boothToken, token == boothToken {
            throw .kiosk(.sameTokens)
        }
        if boothToken != nil && token == nil {
            throw .kiosk(.boothTokenWithoutOperatorToken)
        }
        return (token, boothToken)
    }

    /// `kiosk.listen` beyond loopback needs the operator's token.
    static func checkExposure(_ configuration: RecorderConfiguration) throws(RecorderError) {
        let listen = configuration.text("kiosk.listen") ?? defaultListen
        guard let (host, _) = RecorderConfiguration.parseListen(listen), !isLoopback(host) else { return }
        let (token, _) = try readTokens(configuration)
        if token == nil { throw .kiosk(.exposedWithoutToken(listen: listen)) }
    }

    static func parseListen(_ text: String) -> (String, Int)? { RecorderConfiguration.parseListen(text) }

    /// `kiosk.proxy_socket`: off (or empty), or the full path of a Unix socket, short enough for one
    /// (sun_path: 107 bytes).
    static func readProxySocket(_ configuration: RecorderConfiguration) throws(RecorderError) -> String? {
        let path = configuration.text("kiosk.proxy_socket") ?? "off"
        guard !path.isEmpty, path != "off" else { return nil }
        let origin = configuration.origin("kiosk.proxy_socket")
        guard path.hasPrefix("/"), !path.hasSuffix("/") else { throw .kiosk(.proxySocketNotAbsolute(path: path, origin: origin)) }
        guard path.utf8.count <= 107 else { throw .kiosk(.proxySocketTooLong(path: path, origin: origin, bytes: path.utf8.count)) }
        return path
    }

    /// `kiosk.state_dir`, else `$XDG_STATE_HOME/recorder/kiosk` (the unit sets XDG_STATE_HOME to
    /// its StateDirectory's parent: /var/lib/recorder/kiosk).
    package static func stateDirectory(_ configuration: RecorderConfiguration) -> String {
        configuration.kioskStateDirectory
    }

    /// The kiosk's shot: its length and camera, made into `effect` (nil: the default one), everything
    /// else at the defaults. A boomerang's take is `effect.boomerang_seconds` long.
    package func shotRequest(seconds: Double? = nil, effect: ClipEffect? = nil) -> ShotRequest {
        var request = shot
        request.device = device
        request.seconds = seconds ?? self.seconds
        request.audio = audio
        request.choose(effect ?? defaultEffect)
        return request
    }

    /// The effect a shot gets until a guest chooses: the first offered, else `shoot.effect`.
    package var defaultEffect: ClipEffect { effects.first ?? shot.effect }

    /// What the preview streams: small and slow, since it is only looked at.
    package var previewRequest: ShotRequest {
        ShotRequest.preview(device: device)
    }
}
