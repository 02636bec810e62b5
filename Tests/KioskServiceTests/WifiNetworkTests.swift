import Foundation
import Hummingbird
import NIOCore
@testable import KioskService
import Settings
import Shooting
import Publishing
import Library
import ShareCode
import Testing
@testable import KioskWords
@testable import KioskState
import Failures

/// The booth's own Wi-Fi as the thank-you screen offers it (`kiosk.wifi_*`): the settings, refused
/// with the fix at start, and the standard Wi-Fi code's text. (The code itself is read by zbarimg
/// off the screen in Tests/browser/booth_page.py, and joined by a phone in the device guest,
/// Tests/vm/device/68-wifi.sh.)
struct WifiNetworkTests {
    @Test func theCodeEscapesWhatTheWiFiCodeFormatReserves() throws {
        let network = try #require(try WifiNetwork(name: #"Booth; "Wi,Fi": A\B"#, security: nil, password: #"p;a,s:s"w\rd $$ ok"#))
        #expect(network.security == .wpa2)
        #expect(network.qrText == #"WIFI:T:WPA;S:Booth\; \"Wi\,Fi\"\: A\\B;P:p\;a\,s\:s\"w\\rd $$ ok;;"#)
        let plain = try #require(try WifiNetwork(name: "Hochzeit Anna & Ben 💍", security: .wpa2, password: "tanzen-bis-4"))
        #expect(plain.qrText == "WIFI:T:WPA;S:Hochzeit Anna & Ben 💍;P:tanzen-bis-4;;")
        let open = try #require(try WifiNetwork(name: "booth", security: .open, password: ""))
        #expect(open.password == nil && open.qrText == "WIFI:T:nopass;S:booth;;")
        // Nothing set: no network, no second code.
        #expect(try WifiNetwork(name: "", security: nil, password: "") == nil)
    }

    @Test func aSettingNoPhoneCouldUseIsAProblemWithItsData() {
        func problem(_ name: String, _ security: WifiNetwork.Security?, _ password: String) -> WifiNetwork.Problem? {
            do throws(WifiNetwork.Problem) { _ = try WifiNetwork(name: name, security: security, password: password); return nil } catch { return error }
        }
        #expect(problem(String(repeating: "a", count: 31) + "é", nil, "password") == .nameTooLong(bytes: 33))
        #expect(problem(String(repeating: "a", count: 30) + "é", nil, "password") == nil)
        #expect(problem("two\nlines", nil, "password") == .nameControlCharacter)
        #expect(problem("booth", nil, "") == .passwordMissing)
        #expect(problem("booth", .wpa2, "short12") == .passwordLength(7))
        #expect(problem("booth", .wpa2, String(repeating: "ab", count: 32)) == .passwordLength(64))
        #expect(problem("booth", .wpa2, String(repeating: "x", count: 63)) == nil)
        #expect(problem("booth", .wpa2, "grüne-wiese") == .passwordCharacter("ü"))
        #expect(problem("booth", .wpa2, "tab\there-it-is") == .passwordCharacter("\t"))
        #expect(problem("booth", .open, "password") == .passwordOnOpenNetwork)
        #expect(problem("", nil, "password") == .nameMissing)
        #expect(problem("", .open, "") == .nameMissing)
    }

    private func settings(_ flags: [String: String]) throws(RecorderError) -> KioskSettings {
        try KioskSettings(try RecorderConfiguration(flags: flags, configFile: KioskSettingsTests.emptyConfig, environment: [:], settings: .withKiosk))
    }

    @Test func theKioskStopsAtStartOnABadWiFiSettingNamingTheFix() throws {
        let page = "http://10.42.0.1/s/{token}"
        func wifi(_ error: RecorderError?) -> WifiNetwork.Problem? {
            if case .wifi(let problem, _, _)? = error?.failure(as: KioskProblem.self) { return problem }
            return nil
        }
        func refusal(_ flags: [String: String]) -> RecorderError? {
            do throws(RecorderError) { _ = try settings(flags); return nil } catch { return error }
        }
        let short = refusal(["kiosk.wifi_ssid": "booth", "kiosk.wifi_password": "short", "share.base_url": page])
        #expect(wifi(short) == .passwordLength(5), "\(String(describing: short))")
        let missing = refusal(["kiosk.wifi_ssid": "booth", "share.base_url": page])
        #expect(wifi(missing) == .passwordMissing, "\(String(describing: missing))")
        let orphan = refusal(["kiosk.wifi_password": "a-good-password"])
        #expect(wifi(orphan) == .nameMissing, "\(String(describing: orphan))")
        // A link phones on the booth's Wi-Fi cannot open: the store's own (presigned) or the video's address.
        for base in [nil, "https://cdn.example.com/{key}", "https://cdn.example.com/v/{id}.mp4"] {
            var flags = ["kiosk.wifi_ssid": "booth", "kiosk.wifi_password": "a-good-password"]
            flags["share.base_url"] = base
            let refused = refusal(flags)
            #expect(refused?.failure(as: KioskProblem.self)?.caseName == "wifiNeedsSharePage" && refused?.kind == .misconfigured,
                    "\(base ?? "none"): \(String(describing: refused))")
        }
        let good = try settings(["kiosk.wifi_ssid": "booth", "kiosk.wifi_password": "a-good-password", "share.base_url": "https://videos.example.com/s/{token}"])
        #expect(good.wifi?.name == "booth" && good.booth.wifi == KioskStatus.Wifi(name: "booth", password: "a-good-password"))
        let open = try settings(["kiosk.wifi_ssid": "booth", "kiosk.wifi_security": "open", "share.base_url": page])
        #expect(open.booth.wifi == KioskStatus.Wifi(name: "booth", password: nil))
        #expect(try settings([:]).wifi == nil)
        // The password is a secret to `config show` (the screen shows it; the journal and the operator page need not).
        #expect(SettingsCatalogue.withKiosk["kiosk.wifi_password"]?.isSecret == true)
    }

    @Test func theBoothsScreenGetsTheWiFiCodeOnlyWhenThereIsOne() async throws {
        let wifi = ["kiosk.wifi_ssid": #"Booth; "Wi,Fi""#, "kiosk.wifi_password": "a-good-password", "share.base_url": "http://10.42.0.1/s/{token}"]
        let fixture = try KioskFixture(more: wifi)
        defer { fixture.remove() }
        let none = try KioskFixture()
        defer { none.remove() }
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/wifi/qr.svg", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/svg+xml")
                let drawn = try QRCode(#"WIFI:T:WPA;S:Booth\; \"Wi\,Fi\";P:a-good-password;;"#).svg()
                #expect(String(buffer: response.body) == drawn)
            }
            try await client.execute(uri: "/api/status", method: .get) { response in
                let booth = object(response)["booth"] as? [String: Any]
                let shown = booth?["wifi"] as? [String: Any]
                #expect(shown?["name"] as? String == #"Booth; "Wi,Fi""# && shown?["password"] as? String == "a-good-password")
            }
        }
        try await none.application().test(.router) { client in
            try await client.execute(uri: "/api/wifi/qr.svg", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect((object(response)["booth"] as? [String: Any])?["wifi"] == nil)
            }
        }
    }
}
