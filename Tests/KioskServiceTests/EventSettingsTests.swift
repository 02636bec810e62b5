import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
@testable import KioskService
@testable import Settings
@testable import KioskHTTP
@testable import KioskState
import KioskWords
import Failures
import SystemSupport

/// The operator page's Event section behind `/api/admin/settings` (issue 49): every setting listed
/// with its origin and never a secret, the page's changes saved as the operator's layer all or
/// nothing (judged by the one validator), the frame seen on a still before it is saved.
@Suite struct EventSettingsTests {
    static let token = AdminAPITests.token
    static let headers = AdminAPITests.authorized
    static let wifiPassword = "correct horse battery"

    /// The fixture's kiosk state directory (HOME is its directory: kiosk.state_dir's default).
    static func stateDirectory(_ fixture: KioskFixture) -> String {
        fixture.kiosk.settings.stateDirectory
    }

    /// The layer the fixture's kiosk saved, read as JSON (not with recorder's reader).
    static func savedLayer(_ fixture: KioskFixture) throws -> [String: [String: String]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: stateDirectory(fixture) + "/operator-settings.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["settings"] as? [String: [String: String]])
    }

    static func put(_ client: RouterTestClient<some HTTPResponder>, _ changes: [String: Any]) async throws -> (HTTPResponse.Status, [String: Any]) {
        let data = try JSONSerialization.data(withJSONObject: ["changes": changes])
        return try await client.execute(uri: "/api/admin/settings", method: .put, headers: headers, body: ByteBuffer(bytes: data)) { response in
            (response.status, object(response))
        }
    }

    static func entries(_ client: RouterTestClient<some HTTPResponder>) async throws -> (text: String, byKey: [String: [String: Any]]) {
        try await client.execute(uri: "/api/admin/settings", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            let settings = object(response)["settings"] as? [[String: Any]] ?? []
            return (String(buffer: response.body), Dictionary(uniqueKeysWithValues: settings.map { ($0["key"] as? String ?? "", $0) }))
        }
    }

    /// "operator page, 2026-11-29 14:02" for `changedAt`, in this machine's zone: written out with
    /// Foundation's formatter, not the layer's own.
    static func origin(_ changedAt: String) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = .current
        return "operator page, " + formatter.string(from: ISO8601DateFormatter().date(from: changedAt)!)
    }

    @Test func everySettingIsListedWithItsOriginAndNoSecretIsSent() async throws {
        // The booth's Wi-Fi saved by the page before this start (a secret among it).
        let directory = NSTemporaryDirectory() + "recorder-kiosk-\(UUID().uuidString)"
        let state = directory + "/.local/state/recorder/kiosk"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let layer = OperatorLayer(entries: [
            "kiosk.wifi_ssid": .init(value: "Booth", changedAt: "2026-11-29T13:02:00Z"),
            "kiosk.wifi_password": .init(value: Self.wifiPassword, changedAt: "2026-11-29T13:02:00Z"),
            "share.base_url": .init(value: "http://10.42.0.1/s/{token}", changedAt: "2026-11-29T13:02:00Z"),
        ])
        try Data(layer.encoded()).write(to: URL(fileURLWithPath: state + "/operator-settings.json"))
        let fixture = try KioskFixture(token: Self.token, directory: directory)
        defer { fixture.remove() }
        #expect(fixture.kiosk.settings.wifi?.password == Self.wifiPassword, "the kiosk runs with the operator's layer")
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let (text, byKey) = try await Self.entries(client)
            #expect(Set(byKey.keys) == Set(SettingsCatalogue.withKiosk.keys))
            #expect(!text.contains(Self.wifiPassword) && !text.contains(Self.token), "a secret was sent")
            let password = try #require(byKey["kiosk.wifi_password"])
            #expect(password["value"] == nil && password["set"] as? Bool == true && password["secret"] as? Bool == true)
            #expect(password["origin"] as? String == Self.origin("2026-11-29T13:02:00Z") && password["editable"] as? Bool == true)
            #expect(byKey["kiosk.token"]?["value"] == nil && byKey["kiosk.token"]?["set"] as? Bool == true)
            // Set on the command line: shown, and the page may not change it.
            #expect(byKey["kiosk.seconds"]?["origin"] as? String == "flag" && byKey["kiosk.seconds"]?["editable"] as? Bool == false)
            #expect(byKey["event.name"]?["origin"] as? String == "default" && byKey["event.name"]?["editable"] as? Bool == true)
            #expect(byKey["kiosk.listen"]?["editable"] as? Bool == false && byKey["kiosk.listen"]?["edit"] == nil)
            #expect(Set(byKey.filter { $0.value["editable"] as? Bool == true }.keys) == EventSection.keys.subtracting(["kiosk.seconds", "kiosk.countdown_seconds"]))
        }
    }

    @Test func aChangeIsSavedAsTheOperatorsLayerForTheNextStart() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        let prompts = "What do you wish them?\nYour best memory of them?"
        let consent = "I agree that my video is shown at the wedding."
        try await fixture.application().test(.router) { client in
            let (status, answer) = try await Self.put(client, ["event.name": "Anna & Ben", "kiosk.prompts": ["text": prompts],
                                                               "kiosk.consent": ["text": consent], "retention.days": 30,
                                                               "mail.credentials_file": ["user": "booth", "password": "mail pass word"]])
            #expect(status == .ok, "\(answer)")
            #expect(answer["saved"] as? [String] == ["event.name", "kiosk.consent", "kiosk.prompts", "mail.credentials_file", "retention.days"])
            #expect(answer["restartNeeded"] as? Bool == true)
            let saved = try Self.savedLayer(fixture)
            #expect(saved["event.name"]?["value"] == "Anna & Ben" && saved["retention.days"]?["value"] == "30")
            // The texts are files beside the layer, the login one only its owner reads.
            let promptsFile = try #require(saved["kiosk.prompts"]?["value"])
            #expect(promptsFile.hasPrefix(Self.stateDirectory(fixture) + "/operator/"))
            #expect(try String(contentsOfFile: promptsFile, encoding: .utf8) == prompts)
            #expect(try String(contentsOfFile: try #require(saved["kiosk.consent"]?["value"]), encoding: .utf8) == consent)
            let login = try #require(saved["mail.credentials_file"]?["value"])
            #expect(FileSystem.status(of: login)?.permissions == 0o600)
            // What a restart reads: the layer's values, with the page as their origin.
            let again = fixture.kiosk.configuration.readAgain()
            let changedAt = try #require(saved["event.name"]?["changedAt"])
            #expect(again.values["event.name"] == "Anna & Ben" && again.origin("event.name") == Self.origin(changedAt))
            #expect(try KioskSettings(again).prompts?.questions == ["What do you wish them?", "Your best memory of them?"])
            // The kiosk running now keeps its settings until it restarts; the page says which wait.
            #expect(fixture.kiosk.settings.prompts == nil)
            let (text, byKey) = try await Self.entries(client)
            #expect(byKey["event.name"]?["pending"] as? Bool == true && byKey["kiosk.prompts"]?["text"] as? String == prompts)
            #expect(byKey["mail.credentials_file"]?["set"] as? Bool == true && !text.contains("mail pass word"))
            // null: back to the file's value (here the default), the key gone from the layer.
            let (reset, _) = try await Self.put(client, ["retention.days": NSNull()])
            let afterReset = try Self.savedLayer(fixture)
            #expect(reset == .ok && afterReset["retention.days"] == nil)
        }
    }

    @Test func anInvalidChangeSavesNothingAndSaysWhatTheValidatorSays() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        let layerFile = Self.stateDirectory(fixture) + "/operator-settings.json"
        try await fixture.application().test(.router) { client in
            // A good name beside a Wi-Fi password the kiosk refuses: neither is saved.
            let changes: [String: Any] = ["event.name": "Anna & Ben", "kiosk.prompts": ["text": "One?"], "kiosk.wifi_ssid": "Booth",
                                          "kiosk.wifi_password": "short", "share.base_url": "http://10.42.0.1/s/{token}"]
            let (status, answer) = try await Self.put(client, changes)
            #expect(status == .unprocessableContent && answer["kind"] as? String == "misconfigured")
            #expect(!FileManager.default.fileExists(atPath: layerFile), "the layer was written")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: Self.stateDirectory(fixture) + "/operator")) ?? []
            #expect(left.isEmpty, "files of a refused change were left: \(left)")
            // The same case the one validator finds in these settings, in the same words.
            let findings = try #require(answer["findings"] as? [[String: Any]])
            let layer = OperatorLayer(entries: ["kiosk.wifi_ssid": .init(value: "Booth", changedAt: "2026-11-29T13:02:00Z"),
                                                "kiosk.wifi_password": .init(value: "short", changedAt: "2026-11-29T13:02:00Z"),
                                                "share.base_url": .init(value: "http://10.42.0.1/s/{token}", changedAt: "2026-11-29T13:02:00Z")])
            let judged = ConfigurationCheck.findings(fixture.kiosk.configuration.reading(layer: layer))
            #expect(judged.count == 1 && findings.count == 1)
            #expect(judged.first?.error.failure(as: KioskProblem.self).map { if case .wifi(.passwordLength(5), "Booth", _) = $0 { true } else { false } } == true,
                    "\(judged)")
            let expected = OperatorWords.text(try #require(judged.first?.error)).replacing(Self.origin("2026-11-29T13:02:00Z"), with: "")
            let said = (findings.first?["error"] as? String ?? "").replacing(/operator page, [0-9-]+ [0-9:]+/, with: "")
            #expect(said == expected && findings.first?["keys"] as? [String] == judged.first?.keys)
            // A key the page does not set, and one the command line pins: refused, nothing saved.
            let (notOurs, _) = try await Self.put(client, ["event.name": "x", "kiosk.listen": "0.0.0.0:80"])
            let (pinned, _) = try await Self.put(client, ["event.name": "x", "kiosk.seconds": 5])
            let (wrongForm, _) = try await Self.put(client, ["kiosk.prompts": "/etc/shadow"])
            #expect(notOurs == .badRequest && pinned == .forbidden && wrongForm == .badRequest)
            // From another site's page, as every operator route: refused before it is read.
            var foreign = Self.headers
            foreign[.origin] = "http://evil.example"
            let data = try JSONSerialization.data(withJSONObject: ["changes": ["event.name": "x"]])
            try await client.execute(uri: "/api/admin/settings", method: .put, headers: foreign, body: ByteBuffer(bytes: data)) { response in
                #expect(response.status == .forbidden)
            }
            #expect(!FileManager.default.fileExists(atPath: layerFile))
        }
    }

    /// The effects a guest chooses from (issue 53: "the operator page sets the list"): saved as
    /// the operator's layer and taken by the next start; an effect the kiosk does not know is
    /// refused with the validator's case, nothing saved.
    @Test func theEffectsOfferedAreSetFromThePage() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        let layerFile = Self.stateDirectory(fixture) + "/operator-settings.json"
        try await fixture.application().test(.router) { client in
            let (refused, answer) = try await Self.put(client, ["kiosk.effects": "none, sparkle"])
            #expect(refused == .unprocessableContent && answer["kind"] as? String == "misconfigured")
            #expect(!FileManager.default.fileExists(atPath: layerFile), "a refused list was saved")
            let (status, saved) = try await Self.put(client, ["kiosk.effects": "none, boomerang, slowmo"])
            #expect(status == .ok && saved["saved"] as? [String] == ["kiosk.effects"], "\(saved)")
            let again = fixture.kiosk.configuration.readAgain()
            #expect(try KioskSettings(again).effects.map(\.rawValue) == ["none", "boomerang", "slowmo"])
            #expect(OperatorLayer.isOrigin(again.origin("kiosk.effects")))
        }
    }

    /// A PNG with a red band across its top eighth, clear below: made by ffmpeg.
    static func frame(_ path: String) throws {
        #expect(try OverlayMirrorTests.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=320x180", "-frames:v", "1", "-vf",
                                               "format=rgba,geq=r='230':g='20':b='20':a='if(lt(Y,22),255,0)'", path]) == 0)
    }

    @Test func theFrameIsSeenOverTheCameraBeforeItIsSaved() async throws {
        let fixture = try KioskFixture(token: Self.token, more: ["shoot.size": "640x360"])
        defer { fixture.remove() }
        await fixture.start()
        let png = fixture.directory + "/frame.png"
        try Self.frame(png)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        try await fixture.application().test(.router) { client in
            var headers = Self.headers
            headers[.contentType] = "image/png"
            let upload = try await client.execute(uri: "/api/admin/frame", method: .post, headers: headers, body: ByteBuffer(bytes: bytes)) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return object(response)
            }
            let id = try #require(upload["upload"] as? String)
            #expect(upload["width"] as? Int == 320 && upload["height"] as? Int == 180)
            // The still with it: the band at the top is red, the middle the camera's; without it, none.
            for (frame, red) in [(id, true), ("none", false)] {
                let still = fixture.directory + "/still-\(frame).jpg"
                try await client.execute(uri: "/api/admin/frame/still.jpg?frame=\(frame)", method: .get, headers: Self.headers) { response in
                    #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                    try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: still))
                }
                #expect(OverlayMirrorTests.red(try OverlayMirrorTests.pixel(still, 320, 10, width: 640)) == red, "\(frame): the top")
                #expect(!OverlayMirrorTests.red(try OverlayMirrorTests.pixel(still, 320, 200, width: 640)), "\(frame): the middle")
            }
            // Not saved yet: nothing in the layer; then saved, and served back as it was sent.
            #expect(!FileManager.default.fileExists(atPath: Self.stateDirectory(fixture) + "/operator-settings.json"))
            let (status, _) = try await Self.put(client, ["shoot.overlay": ["upload": id]])
            let layer = try Self.savedLayer(fixture)
            #expect(status == .ok && layer["shoot.overlay"]?["value"]?.hasSuffix("/frame-\(id).png") == true)
            try await client.execute(uri: "/api/admin/frame.png", method: .get, headers: Self.headers) { response in
                #expect(response.status == .ok && Data(response.body.readableBytesView) == bytes)
            }
            // What is not a PNG is refused, and kept nowhere.
            let before = try FileManager.default.contentsOfDirectory(atPath: Self.stateDirectory(fixture) + "/operator").count
            try await client.execute(uri: "/api/admin/frame", method: .post, headers: headers, body: ByteBuffer(string: "GIF89a not a png")) { response in
                #expect(response.status == .badRequest)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: Self.stateDirectory(fixture) + "/operator").count == before)
        }
    }
}
