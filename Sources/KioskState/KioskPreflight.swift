package import FoundationEssentials
import Glibc
import Library
package import Preflight
import Publishing
package import Settings
import Shooting
import Synchronization
import SystemSupport
import TriggerInput
import KioskWords
package import Failures
import PreflightValues

/// The preflight of a booth: what `recorder doctor` checks, and the operator page's list. Outside
/// the kiosk (`standalone`) the devices are opened for a moment; inside it (`live`) its own camera,
/// meter and button are looked at, so a shot under way keeps them. The rest is the same: the
/// configuration's disks, clock, store, outbox, tokens, share links, certificates and Wi-Fi.
package enum KioskPreflight {
    /// Each check's time limit.
    static let deviceDeadline = Duration.seconds(30)
    static let storeDeadline = Duration.seconds(25)
    static let quickDeadline = Duration.seconds(12)

    /// The checks `recorder doctor` runs, with `clock` for the microphone's listening.
    package static func standalone(_ configuration: RecorderConfiguration, paths: PreflightPaths, clock: any Clock<Duration>,
                                  now: @escaping @Sendable () -> Date = { Date() }) -> [PreflightProbe] {
        // The one judge `recorder kiosk` stops at, so doctor and `recorder config check` agree.
        let refusal = ConfigurationCheck.first(configuration)
        let request = shotRequest(configuration)
        let audio = AudioChoice(configuration.text("audio.device") ?? "auto")
        let trigger = TriggerChoice(setting: configuration.text("kiosk.trigger") ?? "", match: configuration.text("kiosk.trigger_match") ?? "")
        let file = configuration.file
        let configured: PreflightFinding = refusal.map { .configurationRefused(file: file, problem: $0.text()) } ?? .configurationAccepted(file: file)
        return [
            .known(.configuration, configured),
            .blocking(.camera, deadline: deviceDeadline) { stop in CameraCheck.look(request, stop: stop) },
            PreflightProbe(.microphone, deadline: deviceDeadline) { stop in
                await MicrophoneListen.look(audio, camera: request.device, clock: clock, stop: stop)
            },
            .blocking(.trigger, deadline: quickDeadline) { _ in TriggerCheck.look(trigger, sysfs: paths.inputSysfs) },
            .blocking(.clock, deadline: quickDeadline) { _ in
                ClockCheck.look(now: now(), synchronised: TimeSync.synchronised(timedatectl: paths.timedatectl))
            },
            .blocking(.service, deadline: quickDeadline) { _ in ServiceCheck.look(unit: paths.unit, systemctl: paths.systemctl) },
        ] + common(configuration, paths: paths, request: request)
    }

    /// The checks of the configuration's places and settings, the same in and outside the kiosk.
    static func common(_ configuration: RecorderConfiguration, paths: PreflightPaths, request: ShotRequest) -> [PreflightProbe] {
        let store = PreflightStore(configuration)
        let local = store.localPath
        let workspace = configuration.workspaceDirectory, outbox = configuration.outboxDirectory
        let bitrate = (try? configuration.optionalNumber("shoot.bitrate")).flatMap { $0.map(Int.init) }
        let shotBytes = request.bytesNeeded
        let values = configuration.values
        let listen = values["kiosk.listen"] ?? KioskSettings.defaultListen
        let (host, port) = RecorderConfiguration.parseListen(listen) ?? ("127.0.0.1", 8080)
        let tokens = TokenCheck.look(
            operatorToken: TokenReading.read(configuration, key: "kiosk.token", fileKey: "kiosk.token_file"),
            boothToken: TokenReading.read(configuration, key: "kiosk.booth_token", fileKey: "kiosk.booth_token_file"),
            listen: listen, beyondLoopback: !KioskSettings.isLoopback(host))
        let wifiName = configuration.text("kiosk.wifi_ssid") ?? ""
        let wifiSecurity = configuration.text("kiosk.wifi_security") ?? "wpa2"
        let wifiPassword = values["kiosk.wifi_password"] ?? ""
        let template = configuration.text("share.base_url").flatMap { $0.isEmpty ? nil : $0 }
        let presigned = store.presigns ? values["s3.endpoint"] : nil
        let share = ShareLinkCheck.look(template: template, boothWifi: !wifiName.isEmpty, presignedEndpoint: presigned,
                                        pageBase: pageBase(host: host, port: port))
        return [
            .blocking(.disk, deadline: quickDeadline) { _ in
                DiskCheck.look(workspace: workspace, outbox: outbox, localStore: local, bitrateKbps: bitrate, shotBytes: shotBytes)
            },
            .blocking(.store, deadline: storeDeadline) { _ in
                switch store.roundTrip() {
                case .success(let finding): finding
                case .failure(let error): .storeUnconfigured(problem: error.text())
                }
            },
            .blocking(.outbox, deadline: quickDeadline) { _ in store.outbox(root: outbox) },
            .known(.tokens, tokens),
            .known(.shareLinks, share),
            .blocking(.tls, deadline: quickDeadline) { _ in CertificateCheck.look(directory: paths.tlsDirectory) },
            .blocking(.wifi, deadline: quickDeadline) { _ in
                WifiCheck.look(name: wifiName, security: wifiSecurity, password: wifiPassword, hostapd: paths.hostapd)
            },
        ]
    }

    /// The kiosk's shot as its settings make it (`kiosk.device`, `kiosk.seconds`, `shoot.*`); the
    /// defaults where they cannot be read (the configuration check says why).
    static func shotRequest(_ configuration: RecorderConfiguration) -> ShotRequest {
        var request = (try? ShotRequest.configured(configuration)) ?? ShotRequest(seconds: 15)
        let device = configuration.text("kiosk.device") ?? "auto"
        request.device = device.isEmpty || device == "auto" ? nil : device
        request.seconds = (try? configuration.number("kiosk.seconds")) ?? 15
        return request
    }

    /// Where the kiosk's own share page is for a phone (its first address beyond loopback, when it
    /// listens on every address).
    static func pageBase(host: String, port: Int) -> String? {
        var settings = KioskSettings(host: host, port: port, workspace: ShotWorkspace(root: "/"))
        settings.host = host
        return settings.pageAddresses.first.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }
}
