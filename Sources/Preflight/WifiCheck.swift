import Glibc
package import SystemSupport
package import PreflightValues

/// The booth's Wi-Fi: the kiosk cannot read hostapd's file (root's alone), so its settings
/// (`kiosk.wifi_ssid`, `kiosk.wifi_security`, `kiosk.wifi_password`) are kept equal to the file by
/// hand. Run as root (or by a user who may read the file), this compares them: a phone that reads
/// a Wi-Fi code that disagrees with the access point does not join.
package enum WifiCheck {
    /// What hostapd's file says of the network.
    struct Hostapd: Equatable {
        var name: String?
        /// wpa2, or open.
        var security: String
        var passphrase: String?
        /// A raw 64-digit key instead of a passphrase: no password a guest could type.
        var rawKey: Bool
    }

    /// Blocking (the file). `security`: `kiosk.wifi_security` (wpa2 unless set).
    package static func look(name: String, security: String, password: String, hostapd path: String) -> PreflightFinding {
        guard !name.isEmpty else { return .wifiNotConfigured(setting: "kiosk.wifi_ssid") }
        let bytes: [UInt8]
        do throws(Descriptors.Errno) {
            let fd = try Posix.open(path, O_RDONLY | O_CLOEXEC)
            defer { Posix.closeAfterUse(fd) }
            bytes = try Posix.readAll(fd, limit: 1 << 20)
        } catch {
            return error.code == ENOENT ? .hostapdMissing(file: path) : .hostapdUnreadable(file: path)
        }
        let file = parse(String(decoding: bytes, as: UTF8.self))
        var fields: [WifiField] = []
        if file.name != name { fields.append(.name(configured: name, file: file.name ?? "")) }
        if file.security != security { fields.append(.security(configured: security, file: file.security)) }
        if security == "wpa2" && file.security == "wpa2" && (file.rawKey || file.passphrase != password) { fields.append(.password) }
        return fields.isEmpty ? .wifiMatches(file: path, name: name, security: security) : .wifiDisagrees(file: path, fields: fields)
    }

    /// hostapd.conf's `key=value` lines (`#` starts a comment line; values are taken as they are).
    static func parse(_ text: String) -> Hostapd {
        var values: [String: String] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            guard !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq]).trimmed()] = String(line[line.index(after: eq)...])
        }
        let name = values["ssid"] ?? values["ssid2"].flatMap(ssid2)
        // WPA (wpa=1, 2 or 3) with a pre-shared key is what the Wi-Fi code calls WPA; anything else is open here.
        let wpa = Int(values["wpa"]?.trimmed() ?? "") ?? 0
        let psk = (values["wpa_key_mgmt"] ?? "WPA-PSK").contains("PSK")
        return Hostapd(name: name, security: wpa != 0 && psk ? "wpa2" : "open", passphrase: values["wpa_passphrase"],
                       rawKey: values["wpa_passphrase"] == nil && values["wpa_psk"] != nil)
    }

    /// hostapd's `ssid2=`: a quoted string, or hex.
    static func ssid2(_ value: String) -> String? {
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { return String(value.dropFirst().dropLast()) }
        guard value.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = value.startIndex
        while index < value.endIndex {
            let next = value.index(index, offsetBy: 2)
            guard let byte = UInt8(value[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
