import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
import StorageUpload
import Testing
@testable import KioskService
@testable import Publishing
@testable import Shooting

/// `kiosk.prompts`: one question at a time on the booth's screen, the same one the shot records
/// however it starts, on the post, the share page and in the gallery.
@Suite(.serialized) struct PromptTests {
    static let questions = ["What do you wish the couple? <b>&", "ما هي أجمل ذكرى لديك؟ 🎉"]

    @Test func aFileOfQuestionsIsReadAsAPersonWroteIt() throws {
        let prompts = try Prompts(text: "# questions for the wedding\r\n\r\n  \(Self.questions[0])  \r\n\n\(Self.questions[1])\n# the end\n", origin: "f")
        #expect(prompts.questions == Self.questions)
        for (text, words) in [("", "holds no question"), ("# only a comment\n\n", "holds no question"), ("fine\nbell\u{7}\n", "line 2, contains the control character U+0007"),
                              (String(repeating: "a", count: 201), "line 1, has 201 characters"), ("\u{FFFD}", "not valid UTF-8")] {
            do {
                _ = try Prompts(text: text, origin: "prompts.txt")
                Issue.record("accepted: \(text.prefix(20))")
            } catch {
                #expect(error.message.contains(words) && error.message.contains("prompts.txt"), "\(error.message)")
            }
        }
        // Through the configuration: the setting and the file are named, exit 78.
        for (value, words) in [("relative.txt", "full path"), ("/nonexistent/prompts.txt", "does not exist")] {
            do {
                _ = try KioskFixture(more: ["kiosk.prompts": value])
                Issue.record("kiosk.prompts = \(value) was accepted")
            } catch let error as RecorderError {
                #expect(error.kind == .misconfigured && error.message.contains("kiosk.prompts = \(value)") && error.message.contains(words), "\(error.message)")
            }
        }
    }

    @Test func theQuestionMovesOnOnlyWhileNobodyRecords() throws {
        let deck = PromptDeck(try Prompts(text: "one\ntwo\nthree", origin: "f"), seconds: 5)
        let start = ContinuousClock.now
        let first = deck.current.number
        #expect(!deck.advanceIfDue(now: start + .seconds(4)))
        #expect(deck.advanceIfDue(now: start + .seconds(6)))
        #expect(deck.current.number == first % 3 + 1 && deck.current.count == 3)
        // A shot holds it, however long; its end holds it for the review, then it moves again.
        let asked = deck.holdForShot()
        #expect(asked == deck.current.text)
        #expect(!deck.advanceIfDue(now: start + .seconds(600)))
        deck.release(after: .seconds(30), now: start + .seconds(600))
        #expect(!deck.advanceIfDue(now: start + .seconds(620)))
        #expect(deck.current.text == asked)
        #expect(!deck.advanceIfDue(now: start + .seconds(631)), "the review's end starts the question's own time again")
        #expect(deck.advanceIfDue(now: start + .seconds(637)))
        #expect(deck.current.text != asked)
    }

    @Test func theShotRecordsTheQuestionOnScreenAndThePostShowsIt() async throws {
        let file = NSTemporaryDirectory() + "recorder-prompts-\(UUID().uuidString).txt"
        try Data(Self.questions.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fixture = try KioskFixture(seconds: 1, more: ["kiosk.prompts": file, "kiosk.prompt_seconds": "3"])
        defer { fixture.remove() }
        await fixture.start()
        let button = Task { await fixture.kiosk.followButton() }
        defer { fixture.kiosk.stopButton(); button.cancel() }
        try await fixture.application().test(.router) { client in
            var shown = ""
            try await client.execute(uri: "/api/status", method: .get) { response in
                let prompt = object(response)["prompt"] as? [String: Any] ?? [:]
                shown = prompt["text"] as? String ?? ""
                #expect(Self.questions.contains(shown) && prompt["count"] as? Int == 2, "\(prompt)")
            }
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            // Held while recording, though its 3 s pass.
            try await Task.sleep(for: .seconds(3.5))
            #expect(fixture.kiosk.prompts?.advanceIfDue() == false)
            try await fixture.waitFor("idle")
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot())
            #expect(shot.prompt == shown)

            var id = ""
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body("{\"id\": \"\(shot.id)\", \"caption\": \"hi\"}")) { response in
                id = object(response)["id"] as? String ?? ""
            }
            try await fixture.waitForUpload(id)
            let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/store/posts/\(id).json"))) as? [String: Any]
            #expect(stored?["prompt"] as? String == shown)
            try await client.execute(uri: "/api/feed", method: .get) { response in
                let posts = object(response)["posts"] as? [[String: Any]] ?? []
                #expect(posts.first?["prompt"] as? String == shown, "\(posts)")
            }
            // The share page shows it, escaped as the store's text.
            let metadata = try fixture.kiosk.library.feed.metadata(id: id)
            let token = try #require(metadata.shareToken)
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                let page = String(buffer: response.body)
                let expected = shown == Self.questions[0] ? "What do you wish the couple? &lt;b&gt;&amp;" : Self.questions[1]
                #expect(page.contains(#"<p class="prompt" dir="auto">\#(expected)</p>"#), "\(page)")
                #expect(!page.contains("<b>&"))
            }
        }
        // The button's shot answers the question on screen then, too.
        let deck = try #require(fixture.kiosk.prompts)
        deck.release(after: .zero)
        _ = deck.advanceIfDue()
        try await Task.sleep(for: .seconds(3.2))
        _ = deck.advanceIfDue()
        let onScreen = deck.current.text
        fixture.kiosk.pressButton()
        let end = ContinuousClock.now + .seconds(30)
        while await fixture.kiosk.manager.recordState == .idle, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        try await fixture.waitFor("idle")
        #expect(fixture.kiosk.manager.workspace.currentShot()?.prompt == onScreen)
    }
}
