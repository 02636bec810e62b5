import Glibc
package import PreflightValues
import SystemSupport

/// The preflight's words, for the operator (the operator page's list and `recorder doctor`'s
/// table): what each check found in one line, and what to do in another, with the settings
/// spelled as configuration keys. The checks themselves carry only data.
package enum PreflightWording {
    package struct Words: Sendable, Equatable, Encodable {
        /// The check's name: "camera", "share links".
        package var title: String
        /// What was found.
        package var what: String
        /// What to do; nil when nothing needs doing.
        package var fix: String?
    }

    package static func words(_ check: PreflightCheck) -> Words {
        let (what, fix) = describe(check.finding)
        return Words(title: title(check.id), what: what, fix: fix)
    }

    package static func title(_ id: PreflightCheck.ID) -> String {
        switch id {
        case .configuration: "configuration"
        case .camera: "camera"
        case .microphone: "microphone"
        case .trigger: "button"
        case .disk: "disk"
        case .clock: "clock"
        case .store: "store"
        case .outbox: "outbox"
        case .tokens: "tokens"
        case .shareLinks: "share links"
        case .tls: "TLS"
        case .wifi: "Wi-Fi"
        case .service: "service"
        }
    }

    static func describe(_ finding: PreflightFinding) -> (String, String?) {
        switch finding {
        case .configurationAccepted(let file):
            return ("recorder kiosk accepts it (\(file ?? "no configuration file: the defaults"))", nil)
        case .configurationRefused(let file, let problem):
            return ("recorder kiosk would not start: \(problem)",
                    "fix it where it says (\(file ?? "the configuration file"), or the operator page's Event section at /admin), then run recorder config check")
        case .cameraWorks, .cameraLive, .cameraRecording, .noCamera, .testPattern, .cameraUnusable, .cameraNoPicture,
             .soundOff, .testBeep, .noMicrophone, .microphoneHeard, .microphoneSilent, .microphoneClipping, .microphoneUnusable,
             .microphoneNotHeard, .noButton, .buttonReady, .buttonAbsent, .buttonRefused, .buttonTaken:
            return devices(finding)
        case .diskRoom(let hours, let kbps, let constantQuality, let shotBytes, let places):
            return disk(hours: hours, kbps: kbps, constantQuality: constantQuality, shotBytes: shotBytes, places: places, status: finding.status)
        case .clockSynchronised(let now):
            return ("synchronised (\(now))", nil)
        case .clockNotSynchronised(let now):
            return ("the time service says the clock is not synchronised (it says \(now))",
                    "let it reach its time server (timedatectl timesync-status): posts' times, links' ends and an S3 store go by it")
        case .noTimeService(let now):
            return ("no time service keeps the clock right (it says \(now))",
                    "turn one on: timedatectl set-ntp true (an S3 store refuses a clock 15 minutes off)")
        case .clockBeforeRelease(let now, let release):
            return ("the clock says \(now), before this recorder was made (\(release)): it has lost the time",
                    "set it: timedatectl set-ntp true, or timedatectl set-time")
        case .storeRoundTrip, .storeFailed, .storeUnconfigured, .probeLeft, .outboxEmpty, .outboxQueued, .outboxUnreadable, .outboxUnwritable:
            return store(finding)
        case .tokens(let operatorToken, let boothToken, let listen, let beyondLoopback):
            return tokens(operatorToken, boothToken, listen: listen, beyondLoopback: beyondLoopback)
        case .shareTemplate, .shareUnreachable, .shareNotOnBoothWifi, .sharePresigned, .sharePage,
             .noCertificates, .certificates, .wifiNotConfigured, .wifiMatches, .wifiDisagrees, .hostapdUnreadable, .hostapdMissing:
            return network(finding)
        case .serviceRunning(let unit, let enabled, let restarts):
            return ("\(unit) runs\(restarts > 0 ? ", restarted \(restarts) time(s)" : "")\(enabled ? "" : ", but does not start at boot")",
                    enabled ? nil : "systemctl enable \(unit)")
        case .serviceDown(let unit, let state, let subState):
            return ("\(unit) does not run (\(state)\(subState.isEmpty ? "" : ", \(subState)"))",
                    "systemctl start \(unit); journalctl -u \(unit) says why it stopped")
        case .serviceNotInstalled(let unit):
            return ("\(unit) is not installed: the booth needs recorder kiosk running",
                    "install the package (docs/kiosk.md), or start recorder kiosk another way")
        case .noSystemd:
            return ("no systemd to ask", nil)
        case .serviceIsThis(let pid, let underSystemd):
            return ("this kiosk (pid \(pid)\(underSystemd ? ", under systemd" : ""))", nil)
        case .timedOut(let seconds):
            return ("did not finish in \(number(seconds)) s: something is stuck",
                    "run the check again; if it stays stuck, the device or the store hangs")
        }
    }

    /// "12.5", "3", "0.25".
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(cFormat: "%.1f", value)
    }

    /// What errno `code` means.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
