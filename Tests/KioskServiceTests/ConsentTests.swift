import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
@testable import Settings
@testable import Shooting
import StorageUpload
import Testing
@testable import KioskService
@testable import KioskWords
@testable import KioskState
import Failures
import SystemSupport
import ShotValues

/// `kiosk.consent`: nothing is recorded without a guest's yes, however a shot is started, and the
/// post carries the yes with the very text, stored once in the store.
@Suite(.serialized) struct ConsentTests {
    // CR LF and blank lines around it, a script tag (the page must not end its data block at it),
    // and German: what an operator's file may hold.
    static let fileText = "\r\n\r\nWir nehmen euer Video mit Ton auf und zeigen es auf dieser Feier.\r\nIhr könnt es später löschen. <script>alert(1)</script>\r\n\r\n"
    static let shownText = "Wir nehmen euer Video mit Ton auf und zeigen es auf dieser Feier.\nIhr könnt es später löschen. <script>alert(1)</script>"

    static func fixture() throws -> (KioskFixture, String) {
        let file = NSTemporaryDirectory() + "recorder-consent-\(UUID().uuidString).txt"
        try Data(fileText.utf8).write(to: URL(fileURLWithPath: file))
        return (try KioskFixture(seconds: 1, countdown: 0, more: ["kiosk.consent": file, "kiosk.language": "de"]), file)
    }

    /// sha256sum(1)'s digest of a file: a reader that is not ours.
    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        return String(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64))
    }

    /// The consent data block the guest page embeds (`<script id="consent-data">`), as JSON.
    static func consentData(_ page: String) -> Any? {
        guard let start = page.firstRange(of: #"id="consent-data">"#)?.upperBound,
              let end = page[start...].firstRange(of: "</script>")?.lowerBound else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(page[start..<end].utf8), options: .fragmentsAllowed)
    }

    static func consent(_ response: TestResponse) -> [String: Any] {
        object(response)["consent"] as? [String: Any] ?? [:]
    }

    @Test func noShotStartsWithoutAYesAndThePostCarriesIt() async throws {
        let (fixture, file) = try Self.fixture()
        defer { fixture.remove(); try? FileManager.default.removeItem(atPath: file) }
        await fixture.start()
        let shown = fixture.directory + "/shown.txt"
        try Data(Self.shownText.utf8).write(to: URL(fileURLWithPath: shown))
        let digest = try Self.sha256sum(shown)
        let button = fixture.followButton()
        defer { fixture.kiosk.button.stop(); button.cancel() }

        try await fixture.application().test(.router) { client in
            // The page carries the text as data, the script tag escaped.
            try await client.execute(uri: "/", method: .get) { response in
                let page = String(buffer: response.body)
                let data = Self.consentData(page) as? [String: Any]
                #expect(data?["sha256"] as? String == digest && data?["text"] as? String == Self.shownText, "\(String(describing: data))")
                #expect(page.contains("Ihr könnt es später löschen. \\u003cscript>"))
                #expect(!page.contains("<script>alert"))
            }
            try await client.execute(uri: "/api/status", method: .get) { response in
                let consent = Self.consent(response)
                #expect(consent["textSha256"] as? String == digest)
                #expect(consent["given"] as? Bool == false)
                #expect(consent["language"] as? String == "de")
            }
            // No yes: the API refuses, the button only tells the page.
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { response in
                #expect(response.status == .forbidden)
                #expect(object(response)["guestKey"] as? String == "consentFirst")
            }
            fixture.kiosk.button.press()
            let end = ContinuousClock.now + .seconds(10)
            while fixture.kiosk.guests.consentStatus?.buttonPresses != 1, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
            #expect(fixture.kiosk.guests.consentStatus?.buttonPresses == 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(await fixture.kiosk.manager.recordState == .idle)
            #expect(fixture.kiosk.manager.workspace.currentShot() == nil, "nothing was recorded")

            // A yes to another text, or no answer at all, is refused.
            let wrong = String(repeating: "0", count: 64)
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders,
                                     body: body("{\"answer\": \"yes\", \"textSha256\": \"\(wrong)\"}")) { response in
                #expect(response.status == .conflict)
                #expect(object(response)["guestKey"] as? String == "consentChanged")
            }
            for bad in ["{\"answer\": \"yes\"}", "{\"answer\": \"maybe\"}", "{}", "{\"answer\": \"yes\", \"textSha256\": \"\(digest)\", \"x\": 1}"] {
                try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders, body: body(bad)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
            #expect(fixture.kiosk.guests.consentStatus?.given == false)

            // The yes: the button now records.
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders,
                                     body: body("{\"answer\": \"yes\", \"textSha256\": \"\(digest)\"}")) { response in
                #expect(response.status == .ok)
                #expect(Self.consent(response)["given"] as? Bool == true)
            }
            fixture.kiosk.button.press()
            // Its own deadline: the one above may already have passed on a loaded machine, and
            // then this wait would end at once, before the press had started a shot.
            let pressEnd = ContinuousClock.now + .seconds(60)
            while await fixture.kiosk.manager.recordState == .idle, fixture.kiosk.manager.workspace.currentShot() == nil, ContinuousClock.now < pressEnd {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await fixture.waitFor("idle")
            let first = try #require(fixture.kiosk.manager.workspace.currentShot())
            #expect(first.consent?.textSha256 == digest)
            #expect(first.consent?.language == "de")
            let folder = (first.videoPath as NSString).deletingLastPathComponent
            #expect(try Self.sha256sum(folder + "/consent.txt") == digest, "the shot keeps the text it was recorded under")

            // A retake under the same yes: the page names the shot its guest reviews (a plain shoot,
            // or the button, would be the next person's: CrowdAccessTests).
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{\"retake\": \"\(first.id)\"}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            let retake = try #require(fixture.kiosk.manager.workspace.currentShot())
            #expect(retake.id != first.id && retake.consent == first.consent)

            // Posting ends this guest's yes: the next guest is asked again.
            var postID = ""
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body("{\"id\": \"\(retake.id)\", \"caption\": \"Hallo\"}")) { response in
                #expect(response.status == .accepted)
                postID = object(response)["id"] as? String ?? ""
            }
            #expect(fixture.kiosk.guests.consentStatus?.given == false)
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .forbidden) }

            // The store holds the yes in the metadata and the text once, under its digest.
            try await fixture.waitForUpload(postID)
            let store = fixture.directory + "/store"
            let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(store)/posts/\(postID).json"))) as? [String: Any]
            let recorded = try #require(metadata?["consent"] as? [String: Any])
            #expect(recorded["textSha256"] as? String == digest)
            #expect(recorded["language"] as? String == "de")
            #expect(RFC3339.date(recorded["acceptedAt"] as? String ?? "") != nil)
            let stored = "\(store)/consent/\(digest).txt"
            #expect(try Self.sha256sum(stored) == digest)
            #expect(try String(contentsOfFile: stored, encoding: .utf8) == Self.shownText)

            // A no is counted, and records nothing.
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders, body: body("{\"answer\": \"no\"}")) { #expect($0.status == .ok) }
            let metrics = metricValues(fixture.kiosk.metrics.text())
            #expect(metrics[#"recorder_consent_answers_total{answer="yes"}"#] == 1, "\(metrics)")
            #expect(metrics[#"recorder_consent_answers_total{answer="no"}"#] == 1, "\(metrics)")
        }
    }

    @Test func theGuestWhoLeavesOrDeletesEndsTheYes() async throws {
        let (fixture, file) = try Self.fixture()
        defer { fixture.remove(); try? FileManager.default.removeItem(atPath: file) }
        await fixture.start()
        let digest = try #require(fixture.kiosk.settings.consent?.sha256)
        let yes = "{\"answer\": \"yes\", \"textSha256\": \"\(digest)\"}"
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders, body: body(yes)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot())
            try await client.execute(uri: "/api/shot/current/discard", method: .post, headers: jsonHeaders, body: body("{\"id\": \"\(shot.id)\"}")) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .forbidden) }
            // Walked away from the review: the page says done.
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders, body: body(yes)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders, body: body("{\"answer\": \"done\"}")) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .forbidden) }
            #expect(fixture.kiosk.manager.workspace.currentShot() == nil)
        }
        #expect(metricValues(fixture.kiosk.metrics.text())[#"recorder_consent_answers_total{answer="no"}"#] == 0, "done is not a no")
    }

    @Test func withConsentOffThereIsNothingToAnswerAndShotsStartAsBefore() async throws {
        let fixture = try KioskFixture(seconds: 1)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/status", method: .get) { #expect(object($0)["consent"] is NSNull || object($0)["consent"] == nil) }
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders, body: body("{\"answer\": \"yes\", \"textSha256\": \"x\"}")) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/", method: .get) { #expect(Self.consentData(String(buffer: $0.body)) is NSNull) }
        }
    }

    @Test func aConsentFileThatCannotBeShownIsRefusedAtStart() throws {
        let directory = NSTemporaryDirectory() + "recorder-consent-bad-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        /// The text's own problem, when the file was read and its text refused.
        func refused(_ issue: TextProblem.Issue, _ path: String) -> (KioskProblem) -> Bool {
            { if case .guestTextRefused("kiosk.consent", path, _, let error) = $0 { error == TextProblem(.consent, issue) } else { false } }
        }
        let cases: [(String, Data?, (KioskProblem) -> Bool)] = [
            ("relative.txt", nil, { if case .guestTextNotAbsolute("kiosk.consent", "relative.txt", _) = $0 { true } else { false } }),
            (directory + "/missing.txt", nil, { if case .guestTextUnreadable("kiosk.consent", directory + "/missing.txt", _, false) = $0 { true } else { false } }),
            (directory + "/empty.txt", Data(" \n\n".utf8), refused(.empty, directory + "/empty.txt")),
            (directory + "/bell.txt", Data("ok\u{7}".utf8), refused(.controlCharacter(7, line: nil), directory + "/bell.txt")),
            (directory + "/long.txt", Data(String(repeating: "a", count: 4001).utf8), refused(.tooLong(count: 4001, limit: 4000, line: nil), directory + "/long.txt")),
            (directory + "/latin1.txt", Data([0x4B, 0xF6, 0x6E]), refused(.notUTF8, directory + "/latin1.txt")),
        ]
        for (path, contents, expected) in cases {
            if let contents { try contents.write(to: URL(fileURLWithPath: path)) }
            do {
                _ = try KioskFixture(more: ["kiosk.consent": path])
                Issue.record("kiosk.consent = \(path) was accepted")
            } catch let error as RecorderError {
                // Refused as a setting (kiosk.consent names it), by the case that says what is wrong.
                #expect(error.kind == .misconfigured, "\(path)")
                let problem = error.failure(as: KioskProblem.self)
                #expect(problem.map(expected) == true, "\(path): \(String(describing: problem))")
            }
        }
    }

    @Test func aConsentRecordFromTheStoreIsBelievedOnlyInItsForm() throws {
        let good = Consent(textSha256: String(repeating: "ab", count: 32), acceptedAt: "2026-11-25T20:00:00Z", language: "de")
        #expect(good.trusted == good)
        for bad in [Consent(textSha256: "../../etc/passwd", acceptedAt: good.acceptedAt, language: "de"),
                    Consent(textSha256: String(repeating: "AB", count: 32), acceptedAt: good.acceptedAt, language: "de"),
                    Consent(textSha256: good.textSha256, acceptedAt: "yesterday", language: "de"),
                    Consent(textSha256: good.textSha256, acceptedAt: good.acceptedAt, language: "de\"><")] {
            #expect(bad.trusted == nil, "\(bad)")
        }
    }
}
