import Foundation
import KioskState
@testable import Settings
import Testing

/// The /etc/recorder/recorder.conf the package ships (systemd/recorder.conf): valid as it is, and
/// with a commented example for every key a booth is set up with (issue 49: it had none of the
/// keys the README's step 2 asks for), each one a key of the catalogue whose value passes its rule
/// once its "# " is taken away.
@Suite struct ShippedConfigurationTests {
    static let shipped = #filePath.replacing("Tests/KioskServiceTests/ShippedConfigurationTests.swift", with: "systemd/recorder.conf")

    @Test func itShowsTheEventsKeysAsExamplesThatWorkUncommented() throws {
        let text = try String(contentsOfFile: Self.shipped, encoding: .utf8)
        #expect(RecorderConfiguration(collecting: [:], configFile: Self.shipped, environment: [:], settings: .withKiosk, packageFile: "/nonexistent").problems.isEmpty)
        // The examples: "# key = value" lines of the catalogue's keys.
        var examples: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("# ") {
            let body = line.dropFirst(2)
            guard let eq = body.firstIndex(of: "="), SettingsCatalogue.withKiosk[body[..<eq].trimmingCharacters(in: .whitespaces)] != nil else { continue }
            examples[body[..<eq].trimmingCharacters(in: .whitespaces)] = body[body.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        }
        let event = ["share.base_url", "kiosk.wifi_ssid", "kiosk.wifi_password", "kiosk.prompts", "kiosk.consent", "shoot.overlay",
                     "mail.smtp_url", "mail.from", "mail.event", "retention.days"]
        #expect(event.filter { examples[$0] == nil }.isEmpty, "no example for \(event.filter { examples[$0] == nil })")
        // Uncommented (the ones the file does not set already), every one is a value its key takes.
        let set = RecorderConfiguration(collecting: [:], configFile: Self.shipped, environment: [:], settings: .withKiosk, packageFile: "/nonexistent").values
        let uncommented = NSTemporaryDirectory() + "recorder-conf-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: uncommented) }
        try (text + "\n" + examples.filter { set[$0.key] == nil }.map { "\($0.key) = \($0.value)" }.joined(separator: "\n") + "\n")
            .write(toFile: uncommented, atomically: true, encoding: .utf8)
        let problems = RecorderConfiguration(collecting: [:], configFile: uncommented, environment: [:], settings: .withKiosk, packageFile: "/nonexistent").problems
        #expect(problems.isEmpty, "\(problems)")
    }
}
