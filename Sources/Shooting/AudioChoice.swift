/// Which sound a shot records (`--audio`, `audio.device`).
package enum AudioChoice: Sendable, Hashable {
    /// The camera's own microphone (paired through sysfs); the test beep with the test pattern;
    /// no sound when the camera has no microphone (the shot says so).
    case auto
    /// No sound.
    case none
    /// The built-in test beep, whatever the picture.
    case beep
    /// An ALSA capture device by name: `hw:CARD=C920,DEV=0`, `plughw:...`, `default`.
    case device(String)

    /// Reads `auto`, `none` (or `off`), `beep`, or a device name.
    package init(_ text: String) {
        switch text.lowercased() {
        case "", "auto": self = .auto
        case "none", "off": self = .none
        case "beep", "testsrc": self = .beep
        default: self = .device(text)
        }
    }

    /// As given on the command line.
    package var text: String {
        switch self {
        case .auto: "auto"
        case .none: "none"
        case .beep: "beep"
        case .device(let name): name
        }
    }
}
