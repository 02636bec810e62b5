/// A setting that fixes a failure, named by what it is, not by how one edge spells it.
///
/// Lower layers say what happened and which setting would help; the edges spell it: the CLI as a
/// flag (`--audio none`), the kiosk's operator page and journal as a configuration key
/// (`audio.device = none`). Guests see neither (the kiosk words failures for them in one place).
package struct SettingAdvice: Sendable, Equatable, CustomStringConvertible {
    /// The settings a lower layer may point at.
    package enum Setting: Sendable, Equatable {
        case camera, pixelFormat, size, frameRate, microphone, workspace, storeDirectory, createStoreDirectory

        /// The command-line flag.
        package var flag: String {
            switch self {
            case .camera: "--device"
            case .pixelFormat: "--format"
            case .size: "--size"
            case .frameRate: "--fps"
            case .microphone: "--audio"
            case .workspace: "--workspace"
            case .storeDirectory: "--store-dir"
            case .createStoreDirectory: "--create"
            }
        }

        /// A flag that takes no value (its key takes `true`).
        package var isSwitch: Bool { self == .createStoreDirectory }

        /// The configuration key (`recorder config` lists them).
        package var key: String {
            switch self {
            case .camera: "shoot.device"
            case .pixelFormat: "shoot.format"
            case .size: "shoot.size"
            case .frameRate: "shoot.fps"
            case .microphone: "audio.device"
            case .workspace: "workspace"
            case .storeDirectory: "local.path"
            case .createStoreDirectory: "local.create"
            }
        }
    }

    /// How an edge spells a setting.
    package enum Spelling: Sendable {
        /// `--audio none`
        case flag
        /// `audio.device = none`
        case configuration
    }

    package var setting: Setting
    /// The value to give it, or a placeholder in capitals ("FORMAT") when the text says which.
    package var value: String?
    /// Why, as the end of the sentence "use X ...": "to record without sound".
    package var purpose: String

    package init(_ setting: Setting, _ value: String? = nil, _ purpose: String) {
        self.setting = setting
        self.value = value
        self.purpose = purpose
    }

    /// "use `--audio none` to record without sound" or "set `audio.device = none` to record without sound".
    package func spelled(_ spelling: Spelling) -> String {
        switch spelling {
        // (a switch such as --create takes no value on the command line)
        case .flag: "use `\(setting.flag)\(setting.isSwitch ? "" : value.map { " \($0)" } ?? "")` \(purpose)"
        case .configuration: "set `\(setting.key)\(value.map { " = \($0)" } ?? "")` \(purpose)"
        }
    }

    package var description: String { spelled(.flag) }

    /// The advice as one sentence to append to a message: " Or use `--audio none` to record without sound."
    package static func sentence(_ advice: [SettingAdvice], _ spelling: Spelling) -> String {
        let parts = advice.map { $0.spelled(spelling) }
        guard let last = parts.last else { return "" }
        let joined = parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + ", or " + last
        return " Or " + joined + "."
    }
}
