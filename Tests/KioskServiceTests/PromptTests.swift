import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
import StorageUpload
import SystemSupport
import Testing
@testable import KioskService
@testable import Publishing
@testable import Shooting
@testable import KioskWords
@testable import KioskHTTP
@testable import KioskState
import Failures

/// `kiosk.prompts`: one question at a time on the booth's screen, the same one the shot records
/// however it starts, on the post, the share page and in the gallery.
@Suite(.serialized) struct PromptTests {
    static let questions = ["What do you wish the couple? <b>&", "ما هي أجمل ذكرى لديك؟ 🎉"]

    @Test func aFileOfQuestionsIsReadAsAPersonWroteIt() throws {
        let prompts = try Prompts(text: "# questions for the wedding\r\n\r\n  \(Self.questions[0])  \r\n\n\(Self.questions[1])\n# the end\n", origin: "f")
        #expect(prompts.questions == Self.questions)
        let refusals: [(String, TextProblem.Issue)] = [("", .empty), ("# only a comment\n\n", .empty), ("fine\nbell\u{7}\n", .controlCharacter(7, line: 2)),
                                                        (String(repeating: "a", count: 201), .tooLong(count: 201, limit: 200, line: 1)), ("\u{FFFD}", .notUTF8)]
        for (text, issue) in refusals {
            do {
                _ = try Prompts(text: text, origin: "prompts.txt")
                Issue.record("accepted: \(text.prefix(20))")
            } catch {
                // The case, with the line and the file it is about.
                #expect(error == TextProblem(.prompts(origin: "prompts.txt"), issue), "\(error)")
            }
        }
        // Through the configuration: the setting and the file are named, exit 78.
        for (value, exists) in [("relative.txt", nil), ("/nonexistent/prompts.txt", false)] {
            do {
                _ = try KioskFixture(more: ["kiosk.prompts": value])
                Issue.record("kiosk.prompts = \(value) was accepted")
            } catch let error as RecorderError {
                let problem = error.failure(as: KioskProblem.self)
                let named: Bool = switch problem {
                case .guestTextNotAbsolute("kiosk.prompts", value, _)?: exists == nil
                case .guestTextUnreadable("kiosk.prompts", value, _, let there)?: exists == there
                default: false
                }
                #expect(error.kind == .misconfigured && named, "\(String(describing: problem))")
            }
        }
    }

    @Test func theQuestionMovesOnOnlyWhileNobodyRecords() throws {
        let clock = TestClock()
        let deck = PromptDeck(try Prompts(text: "one\ntwo\nthree", origin: "f"), seconds: 5, clock: clock)
        let first = deck.current.number
        clock.advance(by: .seconds(4))
        #expect(!deck.advanceIfDue())
        #expect(deck.nextChange == clock.now + .seconds(1))
        clock.advance(by: .seconds(2))
        #expect(deck.advanceIfDue())
        #expect(deck.current.number == first % 3 + 1 && deck.current.count == 3)
        // A shot holds it, however long; its end holds it for the review, then it moves again.
        let asked = deck.holdForShot()
        #expect(asked == deck.current.text)
        #expect(deck.nextChange == nil, "nothing to wait for while a shot holds it")
        clock.advance(by: .seconds(594))
        #expect(!deck.advanceIfDue())
        deck.release(after: .seconds(30))
        clock.advance(by: .seconds(20))
        #expect(!deck.advanceIfDue())
        #expect(deck.current.text == asked)
        clock.advance(by: .seconds(11))
        #expect(!deck.advanceIfDue(), "the review's end starts the question's own time again")
        clock.advance(by: .seconds(6))
        #expect(deck.advanceIfDue())
        #expect(deck.current.text != asked)
    }

    /// The service moves the question on by the clock alone: it sleeps until the next move is due
    /// (no polling), wakes when a shot lets go of the question, and tells the pages.
    @Test func theServiceMovesTheQuestionWhenTheClockSaysAndTellsThePages() async throws {
        let clock = TestClock()
        let deck = PromptDeck(try Prompts(text: "one\ntwo", origin: "f"), seconds: 8, clock: clock)
        let events = EventStream()
        let stream = try #require(events.hub.subscribe()).stream
        let publisher = Task { await events.publish(status: { Self.idleStatus }, boothView: { $0 }) }
        let service = Task { try await PromptService(deck: deck, events: events, clock: clock).run() }
        defer { service.cancel(); publisher.cancel(); events.end() }
        var reader = stream.makeAsyncIterator()
        _ = await reader.next()
        #expect(await clock.waitForSleepers(1))
        let first = deck.current.number
        clock.advance(by: .seconds(7))
        #expect(deck.current.number == first, "moved a second early")
        clock.advance(by: .seconds(1))
        let event = String(buffer: try #require(await reader.next()))
        #expect(ServerSentEvent.parse(event).map(\.name) == ["prompt"], "\(event)")
        #expect(deck.current.number != first)
        // Held by a shot: the clock may run on; released, it moves again once its review is over.
        #expect(await clock.waitForSleepers(1))
        _ = deck.holdForShot()
        clock.advance(by: .seconds(3600))
        let held = deck.current.number
        deck.release(after: .seconds(30))
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(30))
        #expect(await clock.waitForSleepers(1))
        #expect(deck.current.number == held)
        clock.advance(by: .seconds(8))
        let next = String(buffer: try #require(await reader.next()))
        #expect(ServerSentEvent.parse(next).map(\.name) == ["prompt"] && deck.current.number != held, "\(next)")
    }

    @Test func theShotRecordsTheQuestionOnScreenAndThePostShowsIt() async throws {
        let file = NSTemporaryDirectory() + "recorder-prompts-\(UUID().uuidString).txt"
        try Data(Self.questions.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fixture = try KioskFixture(seconds: 1, more: ["kiosk.prompts": file, "kiosk.prompt_seconds": "3"])
        defer { fixture.remove() }
        await fixture.start()
        let button = fixture.followButton()
        defer { fixture.kiosk.button.stop(); button.cancel() }
        try await fixture.application().test(.router) { client in
            var shown = ""
            try await client.execute(uri: "/api/status", method: .get) { response in
                let prompt = object(response)["prompt"] as? [String: Any] ?? [:]
                shown = prompt["text"] as? String ?? ""
                #expect(Self.questions.contains(shown) && prompt["count"] as? Int == 2, "\(prompt)")
            }
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            // Held while recording, though its 3 s pass.
            fixture.clock.advance(by: .seconds(3.5))
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
        fixture.clock.advance(by: .seconds(3.2))
        _ = deck.advanceIfDue()
        let onScreen = deck.current.text
        fixture.kiosk.button.press()
        let end = ContinuousClock.now + .seconds(30)
        while await fixture.kiosk.manager.recordState == .idle, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        try await fixture.waitFor("idle")
        #expect(fixture.kiosk.manager.workspace.currentShot()?.prompt == onScreen)
    }

    static var idleStatus: KioskStatus {
        KioskStatus(state: "idle", run: "test", revision: 0, camera: .init(device: "testsrc", present: true, previewRunning: false),
                    sound: .init(choice: "none", muted: true, source: nil), outbox: .init(depth: 0, queued: [], uploadingBytes: 0, uploadingTotal: 0, uploaded: 0),
                    disk: .init(low: false), booth: .init(reviewSeconds: 30, reviewUnposted: "keep", language: "en"), shotSeconds: 1, countdownSeconds: 0,
                    version: "test")
    }
}
