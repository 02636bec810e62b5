package import Failures

/// The booth's own Wi-Fi as a guest's phone joins it (`kiosk.wifi_ssid`, `kiosk.wifi_security`,
/// `kiosk.wifi_password`), and the text of the standard Wi-Fi QR code that joins it.
///
/// The access point itself is hostapd's (systemd/wifi/hostapd.conf); these settings only say what
/// the thank-you screen shows, so they must name the same network and password.
package struct WifiNetwork: Sendable, Equatable {
    package enum Security: String, Sendable, CaseIterable {
        /// WPA2-PSK: a password of 8 to 63 printable ASCII characters.
        case wpa2
        /// No password.
        case open
    }

    /// What is wrong with the settings (`WifiProblem`, Failures).
    package typealias Problem = WifiProblem

    package let name: String
    package let security: Security
    /// nil for an open network.
    package let password: String?

    /// The network from its settings; nil when `name` is empty and nothing else is set.
    package init?(name: String, security: Security?, password: String) throws(Problem) {
        guard !name.isEmpty else {
            if !password.isEmpty || security != nil { throw .nameMissing }
            return nil
        }
        guard name.utf8.count <= 32 else { throw .nameTooLong(bytes: name.utf8.count) }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { throw .nameControlCharacter }
        self.name = name
        self.security = security ?? .wpa2
        switch self.security {
        case .open:
            guard password.isEmpty else { throw .passwordOnOpenNetwork }
            self.password = nil
        case .wpa2:
            guard !password.isEmpty else { throw .passwordMissing }
            if let odd = password.first(where: { !($0.isASCII && (" "..."~").contains($0)) }) { throw .passwordCharacter(String(odd)) }
            guard (8...63).contains(password.count) else { throw .passwordLength(password.count) }
            self.password = password
        }
    }

    /// `WIFI:T:WPA;S:<name>;P:<password>;;` (`T:nopass;S:<name>;;` for an open network), the text
    /// iOS's and Android's cameras read, with `\`, `;`, `,`, `:` and `"` escaped by a backslash.
    ///
    /// Nothing is put in quotes: some readers keep the quotes as part of the password. (A quoted
    /// value exists for names that look like hex, which Android quotes by itself; a 64-digit raw
    /// key, the one password a reader takes for hex, is refused in the settings.)
    package var qrText: String {
        switch security {
        case .wpa2: "WIFI:T:WPA;S:\(Self.escaped(name));P:\(Self.escaped(password ?? ""));;"
        case .open: "WIFI:T:nopass;S:\(Self.escaped(name));;"
        }
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == ";" || character == "," || character == ":" || character == "\"" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
