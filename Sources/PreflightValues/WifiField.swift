/// What the kiosk's Wi-Fi settings and hostapd's file disagree on.
package enum WifiField: Sendable, Equatable, Codable {
    /// The network's name (`kiosk.wifi_ssid`, hostapd's `ssid=`).
    case name(configured: String, file: String)
    /// WPA2 or open (`kiosk.wifi_security`; hostapd's `wpa=`).
    case security(configured: String, file: String)
    /// The password (`kiosk.wifi_password`, hostapd's `wpa_passphrase=`): never shown.
    case password
}
