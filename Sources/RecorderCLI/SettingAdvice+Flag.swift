import SystemSupport
import Settings

extension SettingAdvice.Setting {
    /// The command-line flag that sets it.
    var flag: String {
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
    var isSwitch: Bool { self == .createStoreDirectory }
}

extension SettingAdvice {
    /// "use `--audio none` to record without sound": how the command line spells advice.
    var spelledAsFlag: String {
        // (a switch such as --create takes no value on the command line)
        "use `\(setting.flag)\(setting.isSwitch ? "" : value.map { " \($0)" } ?? "")` \(purpose)"
    }
}
