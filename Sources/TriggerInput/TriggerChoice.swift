import SystemSupport

/// Which input device is the booth's button (`kiosk.trigger`).
package enum TriggerChoice: Sendable, Equatable {
    /// A device node, best a stable one: `/dev/input/by-id/usb-...-event-kbd`.
    case device(String)
    /// The first USB or Bluetooth input device whose name contains one of these words, any case
    /// (`kiosk.trigger_match`, e.g. `button|switch|pedal`); never the machine's own power button.
    case auto(matching: [String])

    /// `auto` or a path; nil for an empty setting (no button). `match`: the words for `auto`,
    /// separated by `|`.
    package init?(setting: String, match: String) {
        if setting.isEmpty || setting == "none" { return nil }
        if setting == "auto" {
            self = .auto(matching: match.split(separator: "|").map { String($0).trimmed().lowercased() }.filter { !$0.isEmpty })
        } else {
            self = .device(setting)
        }
    }

    /// How the setting reads, for the status and the journal.
    package var text: String {
        switch self {
        case .device(let path): path
        case .auto(let words): "auto (a name with \(words.joined(separator: " or ")))"
        }
    }

    /// Whether a device's name is one `auto` takes.
    package func matches(name: String) -> Bool {
        guard case .auto(let words) = self else { return false }
        let name = name.lowercased()
        return words.contains { name.contains($0) }
    }
}
