import FoundationEssentials
import Glibc
package import Settings
import Shooting
import SystemSupport

/// The settings read from files beside the configuration: the tokens, and the texts the guests
/// read (`kiosk.prompts`, `kiosk.consent`), the booth's Wi-Fi.
extension KioskSettings {
    /// A token from its setting (`key`) or its file (`file`, or systemd's credential `credential`);
    /// nil when neither is set or the file is empty (the unit installs an empty one). Refuses a file
    /// others can read and a token that is easy to guess.
    static func readToken(_ configuration: RecorderConfiguration, key: String, file fileKey: String, credential: String,
                          role: String) throws(RecorderError) -> String? {
        let values = configuration.values
        var token = values[key].flatMap { $0.isEmpty ? nil : $0 }
        var origin = configuration.origin(key)
        if let file = values[fileKey] ?? configuration.credentialFile(credential) {
            // As for the S3 keys: a token others can read is no secret. systemd's own credential
            // directory is private to the service, whatever the file's mode.
            if !configuration.isSystemdCredential(file), let info = try? Posix.status(of: file), info.permissions & 0o077 != 0 {
                throw RecorderError("the \(role)'s token file \(file) is readable by other users (mode \(String(info.permissions & 0o777, radix: 8))). Run: chmod 600 \(file)",
                                    kind: .misconfigured)
            }
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw RecorderError("cannot read the \(role)'s token file \(file). Create it (head -c 24 /dev/urandom | base64 > \(file); chmod 600 \(file)) or fix its permissions.",
                                    kind: .misconfigured)
            }
            let trimmed = text.trimmed()
            token = trimmed.isEmpty ? nil : trimmed
            origin = file
        }
        if let token, let problem = TokenStrength.problem(token) {
            throw RecorderError("the \(role)'s token (from \(origin)) \(problem)", kind: .misconfigured)
        }
        return token
    }

    /// A setting that names a text file the guests read (`kiosk.prompts`, `kiosk.consent`): nil when
    /// it is empty or one of `offWords`; else the file's text and how to name the setting in words
    /// ("kiosk.consent = PATH (from ...)"). Refused (exit 78) when it is not a full path, cannot be
    /// read, or is larger than `limit` bytes; `what` says what the file holds.
    static func readGuestText(_ configuration: RecorderConfiguration, key: String, offWords: Set<String>, what: String,
                              limit: Int) throws(RecorderError) -> (text: String, origin: String)? {
        let setting = configuration.text(key) ?? ""
        guard !setting.isEmpty, !offWords.contains(setting) else { return nil }
        let origin = "\(key) = \(setting) (from \(configuration.origin(key)))"
        let off = offWords.contains("off") ? "set \(key) = off" : "leave \(key) out"
        guard setting.hasPrefix("/") else {
            throw RecorderError("\(origin) must be the full path of a text file holding \(what), e.g. /etc/recorder/\(key.dropFirst(6)).txt, or \(off).",
                                kind: .misconfigured)
        }
        guard let data = FileManager.default.contents(atPath: setting) else {
            throw RecorderError("\(origin) \(Posix.allows(setting, F_OK) ? "is not readable by the kiosk's user" : "does not exist"). Create it (UTF-8 text: \(what)), make it readable by the kiosk, or \(off).",
                                kind: .misconfigured)
        }
        guard data.count <= limit else {
            throw RecorderError("\(origin) is \(data.count) bytes: \(what) is read on a screen, a few kilobytes at most. Is it the right file?", kind: .misconfigured)
        }
        return (String(decoding: data, as: UTF8.self), origin)
    }

    /// `kiosk.wifi_ssid`, `kiosk.wifi_security`, `kiosk.wifi_password`: the booth's own Wi-Fi, or nil.
    /// With it, a guest's link must be a share page the booth serves on that Wi-Fi (`{token}` in
    /// `share.base_url`): every name there is the booth, so a presigned store link or a CDN's would
    /// open the booth, which has neither.
    static func readWifi(_ configuration: RecorderConfiguration) throws(RecorderError) -> WifiNetwork? {
        let name = configuration.text("kiosk.wifi_ssid") ?? ""
        let chosen = configuration.values["kiosk.wifi_security"].flatMap(WifiNetwork.Security.init(rawValue:))
        let password = configuration.values["kiosk.wifi_password"] ?? ""
        let named = "kiosk.wifi_ssid = \(name) (from \(configuration.origin("kiosk.wifi_ssid")))"
        let network: WifiNetwork?
        do throws(WifiNetwork.Problem) {
            network = try WifiNetwork(name: name, security: chosen, password: password)
        } catch {
            let message = switch error {
            case .nameMissing:
                "kiosk.wifi_password or kiosk.wifi_security is set (from \(configuration.origin(password.isEmpty ? "kiosk.wifi_security" : "kiosk.wifi_password"))) but kiosk.wifi_ssid is empty: set kiosk.wifi_ssid to the name in the booth's hostapd.conf (ssid=), or leave all three out."
            case .nameTooLong(let bytes):
                "\(named) is \(bytes) bytes: a Wi-Fi network's name is at most 32. Choose a shorter one, here and in the booth's hostapd.conf (ssid=)."
            case .nameControlCharacter:
                "\(named) holds a control character (a line break or a tab), which no phone shows. Write the name on one line, as in the booth's hostapd.conf (ssid=)."
            case .passwordMissing:
                "\(named) is a WPA2 network (kiosk.wifi_security = wpa2, the default) but kiosk.wifi_password is empty: set it to the booth's hostapd.conf's wpa_passphrase=, or set kiosk.wifi_security = open for a network without one (hostapd-open.conf)."
            case .passwordLength(let count):
                "kiosk.wifi_password (from \(configuration.origin("kiosk.wifi_password"))) is \(count) characters: WPA2 takes 8 to 63. Choose one of that length, here and in the booth's hostapd.conf (wpa_passphrase=)."
            case .passwordCharacter(let character):
                "kiosk.wifi_password (from \(configuration.origin("kiosk.wifi_password"))) holds '\(character)': WPA2 takes printable ASCII only (letters, digits, space and punctuation), and guests type it by hand too. Choose one without it, here and in the booth's hostapd.conf."
            case .passwordOnOpenNetwork:
                "kiosk.wifi_security = open (from \(configuration.origin("kiosk.wifi_security"))) but kiosk.wifi_password is set: an open network has none. Leave the password out, or set kiosk.wifi_security = wpa2 to match a hostapd.conf with wpa_passphrase=."
            }
            throw RecorderError(message, kind: .misconfigured)
        }
        guard let network else { return nil }
        let base = configuration.text("share.base_url") ?? ""
        guard base.contains("{token}") else {
            let now = base.isEmpty ? "share.base_url is not set, so a guest's link would point at the store or at this kiosk's own address"
                : "share.base_url = \(base) (from \(configuration.origin("share.base_url"))) points at the video itself"
            throw RecorderError("\(named): on the booth's Wi-Fi every name is the booth, and \(now), which a phone there cannot open. Point it at the share page the booth serves on its Wi-Fi: share.base_url = http://10.42.0.1/s/{token}, or https://NAME/s/{token} for a link that also opens at home (docs/venue.md).",
                                kind: .misconfigured)
        }
        return network
    }

    /// `kiosk.prompts`: empty, or a UTF-8 file of questions, one a line.
    static func readPrompts(_ configuration: RecorderConfiguration) throws(RecorderError) -> Prompts? {
        guard let (text, origin) = try readGuestText(configuration, key: "kiosk.prompts", offWords: ["none", "off"],
                                                     what: "questions for the guests, one a line", limit: 256 * 1024) else { return nil }
        do {
            return try Prompts(text: text, origin: origin)
        } catch {
            throw RecorderError(error.message, kind: .misconfigured)
        }
    }

    /// `kiosk.consent`: off, or a UTF-8 text file in the guest page's language (`kiosk.language`).
    static func readConsent(_ configuration: RecorderConfiguration, language: String) throws(RecorderError) -> ConsentText? {
        guard let (text, origin) = try readGuestText(configuration, key: "kiosk.consent", offWords: ["off"],
                                                     what: "what a guest agrees to before recording", limit: 64 * 1024) else { return nil }
        do {
            return try ConsentText(text, language: language)
        } catch {
            throw RecorderError("\(origin): \(error.message)", kind: .misconfigured)
        }
    }
}
