import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Settings
import SystemSupport
import Testing
@testable import KioskService
@testable import Publishing
@testable import Shooting
@testable import KioskState

/// The operator's highlight reel (`/api/admin/reel`): made in the background from the kiosk's own
/// posts, one at a time, then served with ranges; read back by ffprobe.
@Suite struct ReelAPITests {
    static let token = "reel-token-for-the-tests-0123"
    static let authorized: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]

    @Test func theOperatorMakesTheReelAndPlaysIt() async throws {
        let fixture = try KioskFixture(token: Self.token, seconds: 1, more: ["shoot.size": "320x240"])
        defer { fixture.remove() }
        await fixture.start()
        // Two posts as a guest makes them: the test pattern and its beep, shot, posted, uploaded.
        var ids: [String] = []
        for caption in ["first guest", "second guest"] {
            try await fixture.kiosk.manager.begin(fixture.kiosk.settings.shotRequest(), countdown: 0)
            await fixture.kiosk.manager.waitForShot()
            let item = try await fixture.kiosk.posting.post(caption: caption)
            try await fixture.waitForUpload(item.metadata.id)
            ids.append(item.metadata.id)
        }
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let reelFile = fixture.directory + "/downloaded-reel.mp4"
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/admin/reel.mp4", method: .get, headers: Self.authorized) { response in
                #expect(response.status == .notFound && object(response)["kind"] as? String == "notFound")
            }
            // The page's "Posts from" starts at the event's first post, not today (issue 49: after
            // midnight today's reel found nothing): the kiosk says when it was made.
            let firstCreated = try fixture.kiosk.library.feed.metadata(id: ids[0]).createdAt
            try await client.execute(uri: "/api/admin/reel", method: .get, headers: Self.authorized) { response in
                let first = (object(response)["firstPostAt"] as? String).flatMap(RFC3339.date)
                let made = try #require(RFC3339.date(firstCreated))
                #expect(first != nil && abs(first!.timeIntervalSince(made)) < 1, "\(String(buffer: response.body)) \(firstCreated)")
            }
            for bad in [#"{"since": "yesterday"}"#, #"{"since": "\#(today)", "prompt": "\#(String(repeating: "q", count: 201))"}"#, #"{"since": "\#(today)", "colour": "red"}"#] {
                try await client.execute(uri: "/api/admin/reel", method: .post, headers: Self.authorized, body: body(bad)) { response in
                    #expect(response.status == .badRequest, "\(bad): \(String(buffer: response.body))")
                }
            }
            // The reels' thread held for a moment, so the reel is surely still being made when the
            // second request comes (on a loaded machine a small reel was done before it).
            let hold = DispatchSemaphore(value: 0)
            ReelMaker.work.submit { hold.wait() }
            // No first day: from the first post.
            try await client.execute(uri: "/api/admin/reel", method: .post, headers: Self.authorized, body: body(#"{}"#)) { response in
                #expect(response.status == .accepted, "\(String(buffer: response.body))")
                #expect(object(response)["state"] as? String == "making")
                let since = (object(response)["since"] as? String).flatMap(RFC3339.date)
                #expect(since != nil && since! <= RFC3339.date(firstCreated)!, "\(String(buffer: response.body))")
            }
            // One at a time: a second asks while the first is being made.
            try await client.execute(uri: "/api/admin/reel", method: .post, headers: Self.authorized, body: body(#"{"since": "\#(today)"}"#)) { response in
                #expect(response.status == .conflict, "\(String(buffer: response.body))")
            }
            hold.signal()
            var status: [String: Any] = [:]
            for _ in 0..<600 {
                try await client.execute(uri: "/api/admin/reel", method: .get, headers: Self.authorized) { status = object($0) }
                if status["state"] as? String != "making" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(status["state"] as? String == "done" && (status["latest"] as? [String: Any])?["posts"] as? Int == 2, "\(status)")
            try await client.execute(uri: "/api/admin/reel.mp4", method: .get, headers: [.authorization: "Bearer \(Self.token)", .range: "bytes=0-99"]) { response in
                #expect(response.status == .partialContent && response.body.readableBytes == 100)
            }
            try await client.execute(uri: "/api/admin/reel.mp4", method: .get, headers: Self.authorized) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "video/mp4")
                try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: reelFile))
            }
        }
        // ffprobe: two one-second posts and two 2.5-second cards, with sound the whole way.
        let probe = Process()
        let out = Pipe()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_entries", "stream=codec_type,codec_name,duration", "-of", "csv=p=0", reelFile]
        probe.standardOutput = out
        try probe.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        let streams = text.split(separator: "\n").map { $0.split(separator: ",") }
        let video = try #require(streams.first { $0.count == 3 && $0[1] == "video" }, "\(text)")
        let audio = try #require(streams.first { $0.count == 3 && $0[1] == "audio" }, "\(text)")
        #expect(video[0] == "h264" && audio[0] == "aac", "\(text)")
        #expect(abs((Double(video[2]) ?? 0) - 7) < 0.1 && abs((Double(audio[2]) ?? 0) - 7) < 0.1, "\(text)")
    }
}
