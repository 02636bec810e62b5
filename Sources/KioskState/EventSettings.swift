package import FoundationEssentials
package import Logging
package import Publishing
package import Settings
package import Failures
import Shooting
import Synchronization
package import SystemSupport
import KioskWords

/// The operator page's Event section and every setting it shows (`/api/admin/settings`): reads
/// the settings as a restart would take them, saves the page's changes as the operator's layer
/// (`OperatorLayer`, in `kiosk.state_dir`) with the files they name beside it (`operator/`: the
/// questions, the consent text, the branding frame, the mail's login), all or nothing, judged by
/// the one validator (`ConfigurationCheck`) as `recorder config check` and the kiosk's start judge
/// them. The kiosk takes saved settings when it restarts (`KioskRestart`), between guests.
package final class EventSettings: Sendable {
    /// The configuration the kiosk runs with (read at its start).
    package let running: RecorderConfiguration
    let settings: KioskSettings
    /// A share link as the kiosk's store makes it with these links (an example post's).
    let exampleLink: @Sendable (ShareLinks) -> String?
    package let restart: KioskRestart
    let logger: Logger
    let clock: any RecorderClock
    /// One change of the operator's files at a time (a save, a check, an upload, a test mail).
    let changing = Mutex(())
    /// A test mail under way (one at a time).
    let mailing = Atomic<Bool>(false)

    package init(running: RecorderConfiguration, settings: KioskSettings, exampleLink: @escaping @Sendable (ShareLinks) -> String?,
                 restart: KioskRestart, logger: Logger, clock: any RecorderClock) {
        self.running = running
        self.settings = settings
        self.exampleLink = exampleLink
        self.restart = restart
        self.logger = logger
        self.clock = clock
    }

    /// The kiosk's state directory (the operator's layer), and the folder of the files it names.
    var directory: String { settings.stateDirectory }
    var filesDirectory: String { directory + "/operator" }

    /// What `GET /api/admin/settings` answers (reads files: off the cooperative pool).
    package func document() async -> SettingsDocument {
        await BlockingWork.run { self.makeDocument() }
    }

    func makeDocument() -> SettingsDocument {
        let saved = running.readAgain()
        let entries = saved.effectiveValues().map { key, value, origin in
            entry(key, value: value, origin: origin, saved: saved)
        }
        return SettingsDocument(settings: entries, file: saved.file, operatorFile: saved.layerPath, pending: pending(saved),
                                restart: restart.status, findings: ConfigurationCheck.findings(saved).map(Self.words),
                                shareLinks: shareReach(saved))
    }

    private func entry(_ key: String, value: String?, origin: String, saved: RecorderConfiguration) -> SettingsDocument.Entry {
        let setting = saved.settings[key]
        let field = EventSection.field(key)
        let secret = setting?.isSecret ?? false
        var entry = SettingsDocument.Entry(
            key: key, type: setting?.rule.valueDescription ?? "text", summary: setting?.summary ?? "", value: secret ? nil : value,
            origin: origin, editable: field != nil && !Self.pins(origin), secret: secret, edit: field?.edit.rawValue, group: field?.group,
            pending: running.values[key] != saved.values[key])
        if secret { entry.set = !(saved.values[key] ?? "").isEmpty }
        if case .choice(let choices)? = setting?.rule { entry.choices = choices }
        switch field?.edit {
        case .text?:
            entry.text = Self.guestText(saved.text(key) ?? "")
        case .login?:
            // (the login's file, never its words: only whether there is one)
            entry.set = value.map { !$0.isEmpty && (FileSystem.size(of: $0) ?? 0) > 0 } ?? false
        default: break
        }
        return entry
    }

    /// Whether a value from `origin` is above the operator page: the environment (a drop-in's
    /// `Environment=RECORDER_...`) or the command line.
    static func pins(_ origin: String) -> Bool {
        origin == "flag" || origin == "the command line" || origin.hasPrefix("RECORDER_")
    }

    /// The text of a guest text's file (`kiosk.prompts`, `kiosk.consent`), or empty when it is off
    /// or cannot be read (the findings say why).
    static func guestText(_ path: String) -> String {
        guard path.hasPrefix("/"), let data = FileSystem.dataIfReadable(path), data.count <= 256 * 1024 else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Keys whose saved value the running kiosk does not use yet.
    func pending(_ saved: RecorderConfiguration) -> [String] {
        saved.settings.keys.filter { running.values[$0] != saved.values[$0] }
    }

    /// What phones will open with `configuration`'s share links: an example, and whether a phone can.
    func shareReach(_ configuration: RecorderConfiguration) -> SettingsDocument.ShareReach? {
        guard let links = try? ShareLinks(configuration, pageBase: settings.pageAddresses.first),
              let example = exampleLink(links) else { return nil }
        return SettingsDocument.ShareReach(example: example, opensOnPhones: ShareLinks.opensOnPhones(example))
    }

    /// A finding in the operator's words (what `recorder config check` says, advice as keys).
    static func words(_ finding: ConfigurationCheck.Finding) -> SettingsDocument.Finding {
        SettingsDocument.Finding(keys: finding.keys, error: OperatorWords.text(finding.error), kind: finding.error.kind.rawValue)
    }

    /// A change refused for `findings` (422): each in the operator's words; nothing was saved.
    package static func refused(_ findings: [ConfigurationCheck.Finding]) -> SettingsRefused {
        let words = findings.map(words)
        return SettingsRefused(error: (words.first?.error ?? "") + " Nothing was saved.", kind: "misconfigured", status: 422, findings: words)
    }
}
