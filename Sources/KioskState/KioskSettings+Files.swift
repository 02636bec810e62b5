import FoundationEssentials
import Glibc
import Settings
import Shooting
import SystemSupport
import KioskWords
import Failures

/// The settings read from files beside the configuration: the tokens, and the texts the guests
/// read (`kiosk.prompts`, `kiosk.consent`), the booth's Wi-Fi.
extension KioskSettings {
    /// A token from its setting (`key`) or its file (`file`, or systemd's credential under the unit);
    /// nil when neither is set or the file is empty (the unit installs an empty one). Refuses a file
    /// others can read and a token that is easy to guess.
    static func readToken(_ configuration: RecorderConfiguration, key: String, file fileKey: String,
                          role: String) throws(RecorderError) -> String? {
        switch TokenReading.read(configuration, key: key, fileKey: fileKey) {
        case .none:
            return nil
        case .readableByOthers(let file, let mode):
            throw .kiosk(.tokenFileShared(role: role, path: file, mode: mode))
        case .unreadable(let file):
            throw .kiosk(.tokenFileUnreadable(role: role, path: file))
        case .token(let token, let origin):
            if let weakness = TokenStrength.weakness(token) {
                throw .kiosk(.weakToken(role: role, origin: origin, weakness))
            }
            return token
        }
    }

    /// A setting that names a text file the guests read (`kiosk.prompts`, `kiosk.consent`): nil when
    /// it is empty or one of `offWords`; else the file's text, its path and where the setting came
    /// from. Refused (exit 78) when it is not a full path, cannot be read, or is larger than
    /// `limit` bytes.
    static func readGuestText(_ configuration: RecorderConfiguration, key: String, offWords: Set<String>,
                              limit: Int) throws(RecorderError) -> (text: String, path: String, origin: String)? {
        let setting = configuration.text(key) ?? ""
        guard !setting.isEmpty, !offWords.contains(setting) else { return nil }
        let origin = configuration.origin(key)
        guard setting.hasPrefix("/") else { throw .kiosk(.guestTextNotAbsolute(key: key, value: setting, origin: origin)) }
        guard let data = FileSystem.dataIfReadable(setting) else {
            throw .kiosk(.guestTextUnreadable(key: key, path: setting, origin: origin, exists: Posix.allows(setting, F_OK)))
        }
        guard data.count <= limit else { throw .kiosk(.guestTextTooLarge(key: key, path: setting, origin: origin, bytes: data.count)) }
        return (String(decoding: data, as: UTF8.self), setting, origin)
    }

    /// `kiosk.wifi_ssid`, `kiosk.wifi_security`, `kiosk.wifi_password`: the booth's own Wi-Fi, or nil.
    /// With it, a guest's link must be a share page the booth serves on that Wi-Fi (`{token}` in
    /// `share.base_url`): every name there is the booth, so a presigned store link or a CDN's would
    /// open the booth, which has neither.
    static func readWifi(_ configuration: RecorderConfiguration) throws(RecorderError) -> WifiNetwork? {
        let name = configuration.text("kiosk.wifi_ssid") ?? ""
        let chosen = configuration.values["kiosk.wifi_security"].flatMap(WifiNetwork.Security.init(rawValue:))
        let password = configuration.values["kiosk.wifi_password"] ?? ""
        let network: WifiNetwork?
        do throws(WifiNetwork.Problem) {
            network = try WifiNetwork(name: name, security: chosen, password: password)
        } catch {
            let key = switch error {
            case .nameMissing: password.isEmpty ? "kiosk.wifi_security" : "kiosk.wifi_password"
            case .nameTooLong, .nameControlCharacter, .passwordMissing: "kiosk.wifi_ssid"
            case .passwordLength, .passwordCharacter: "kiosk.wifi_password"
            case .passwordOnOpenNetwork: "kiosk.wifi_security"
            }
            throw .kiosk(.wifi(error, name: name, origin: configuration.origin(key)))
        }
        guard let network else { return nil }
        let base = configuration.text("share.base_url") ?? ""
        guard base.contains("{token}") else {
            throw .kiosk(.wifiNeedsSharePage(name: name, base: base, origin: configuration.origin(base.isEmpty ? "kiosk.wifi_ssid" : "share.base_url")))
        }
        return network
    }

    /// `kiosk.prompts`: empty, or a UTF-8 file of questions, one a line.
    static func readPrompts(_ configuration: RecorderConfiguration) throws(RecorderError) -> Prompts? {
        guard let (text, path, origin) = try readGuestText(configuration, key: "kiosk.prompts", offWords: ["none", "off"],
                                                           limit: 256 * 1024) else { return nil }
        do throws(RecorderError) {
            return try Prompts(text: text, origin: path)
        } catch {
            throw .kiosk(.guestTextRefused(key: "kiosk.prompts", path: path, origin: origin, error))
        }
    }

    /// `kiosk.consent`: off, or a UTF-8 text file in the guest page's language (`kiosk.language`).
    static func readConsent(_ configuration: RecorderConfiguration, language: String) throws(RecorderError) -> ConsentText? {
        guard let (text, path, origin) = try readGuestText(configuration, key: "kiosk.consent", offWords: ["off"],
                                                           limit: 64 * 1024) else { return nil }
        do throws(RecorderError) {
            return try ConsentText(text, language: language)
        } catch {
            throw .kiosk(.guestTextRefused(key: "kiosk.consent", path: path, origin: origin, error))
        }
    }
}
