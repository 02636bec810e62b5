import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
@testable import Shooting
@testable import Publishing
@testable import Library
import Testing
@testable import KioskService

/// A guest's link opens at once, from the booth's own copy while the post waits in the outbox (a
/// venue with no internet: docs/venue.md), and the same link opens the store's copy once it is sent.
/// The drain is not started until a test says so: until then every post stays queued.
struct QueuedShareTests {
    static let base = "https://videos.example.test/s/{token}"
    static let json: HTTPFields = [.contentType: "application/json"]
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// Shoots and posts through the API, as the booth's page does: the post's id.
    static func shootAndPost<Responder>(_ fixture: KioskFixture, _ client: RouterTestClient<Responder>, caption: String) async throws -> String {
        try await client.execute(uri: "/api/shoot", method: .post, headers: json, body: ByteBuffer(string: "{}")) { #expect($0.status == .accepted) }
        try await fixture.waitFor("idle")
        let shot = try #require(fixture.kiosk.manager.workspace.currentShot()).id
        var id = ""
        try await client.execute(uri: "/api/post", method: .post, headers: json,
                                 body: ByteBuffer(string: #"{"id": "\#(shot)", "caption": "\#(caption)"}"#)) { response in
            #expect(response.status == .accepted)
            id = object(response)["id"] as? String ?? ""
        }
        return id
    }

    @Test func aQueuedPostsLinkOpensAtOnceFromTheBoothsCopyThenFromTheStore() async throws {
        let fixture = try KioskFixture(more: ["share.base_url": Self.base])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let id = try await Self.shootAndPost(fixture, client, caption: "am Tisch 7")
            let item = try #require(fixture.kiosk.drain.outbox.item(id: id), "the post waits in the outbox")
            let queuedVideo = try Data(contentsOf: URL(fileURLWithPath: item.videoPath))
            let token = try #require(item.metadata.shareToken)
            #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/store/posts/\(id).json"), "nothing is sent yet")

            // The booth's screen gets the link now, not after an upload.
            try await client.execute(uri: "/api/posts/\(id)/share", method: .get) { response in
                #expect(response.status == .ok, "\(response.status)")
                #expect(object(response)["shareURL"] as? String == "https://videos.example.test/s/\(token)")
                #expect(object(response)["shareExpiresAt"] is String)
            }
            // The phone opens it: the page, and the video byte for byte, whole and in ranges.
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("am Tisch 7") && page.contains(#"src="/s/\#(token)/video.mp4""#) && page.contains("download="))
            }
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get) { response in
                #expect(response.status == .ok && Data(response.body.readableBytesView) == queuedVideo)
            }
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get, headers: [.range: "bytes=100-1099"]) { response in
                #expect(response.status == .partialContent && Data(response.body.readableBytesView) == queuedVideo[100..<1100])
            }
            // A wrong token still opens nothing, queued posts or not.
            try await client.execute(uri: "/s/\(String(token.reversed()))", method: .get) { #expect($0.status == .notFound) }

            // Sent: the same link opens the store's copy.
            try await fixture.waitForUpload(id)
            #expect(fixture.kiosk.drain.outbox.item(id: id) == nil)
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get) { response in
                #expect(response.status == .ok && Data(response.body.readableBytesView) == queuedVideo)
            }
            try await client.execute(uri: "/api/posts/\(id)/share", method: .get) { response in
                #expect(object(response)["shareURL"] as? String == "https://videos.example.test/s/\(token)")
            }
        }
    }

    @Test func aGuestsDeleteOfAQueuedPostTakesItOutOfTheQueueNeverToBeSent() async throws {
        let fixture = try KioskFixture(more: ["share.base_url": Self.base])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let gone = try await Self.shootAndPost(fixture, client, caption: "löschen")
            let token = try #require(fixture.kiosk.drain.outbox.item(id: gone)?.metadata.shareToken)
            // The guest's phone opens the link first (its delete claim, a cookie), then deletes.
            let claim = try await client.execute(uri: "/s/\(token)", method: .get) { response in
                String((response.headers[.setCookie] ?? "").split(separator: ";").first ?? "")
            }
            try await client.execute(uri: "/s/\(token)/delete", method: .post, headers: Self.form + [.cookie: claim],
                                     body: ByteBuffer(string: "confirm=delete")) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            #expect(fixture.kiosk.drain.outbox.item(id: gone) == nil, "withdrawn from the outbox")
            try await client.execute(uri: "/s/\(token)", method: .get) { #expect($0.status == .notFound) }
            // The next post is sent; the deleted one never is.
            let kept = try await Self.shootAndPost(fixture, client, caption: "behalten")
            try await fixture.waitForUpload(kept)
            let posts = try FileManager.default.contentsOfDirectory(atPath: fixture.directory + "/store/posts")
            #expect(posts.contains("\(kept).json") && !posts.contains("\(gone).json"), "\(posts)")
            #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/store/videos/\(gone).mp4"))
        }
    }

    @Test func aLinkToTheVideoItselfWaitsForTheUpload() async throws {
        // share.base_url with {key}: the link is the store's (a CDN's) address, which has nothing
        // until the post is sent, so the booth's screen is not given it before.
        let fixture = try KioskFixture(more: ["share.base_url": "https://cdn.example.test/{key}"])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let id = try await Self.shootAndPost(fixture, client, caption: "cdn")
            try await client.execute(uri: "/api/posts/\(id)/share", method: .get) { #expect($0.status == .notFound) }
            try await fixture.waitForUpload(id)
            try await client.execute(uri: "/api/posts/\(id)/share", method: .get) { response in
                #expect(response.status == .ok && object(response)["shareURL"] as? String == "https://cdn.example.test/videos/\(id).mp4")
            }
        }
    }
}
