package import SystemSupport

extension SettingAdvice.Setting {
    /// The configuration key (declared in `Setting.core`; `recorder config keys` lists them).
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

extension SettingAdvice {
    /// "set `audio.device = none` to record without sound": how the kiosk's operator page and
    /// journal spell advice.
    package var spelledAsKey: String {
        "set `\(setting.key)\(value.map { " = \($0)" } ?? "")` \(purpose)"
    }
}
