import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
@testable import Publishing
@testable import Library
import StorageUpload
import SystemSupport
import Testing
@testable import KioskService
@testable import ShareServer
@testable import KioskHTTP

/// `recorder serve`: a guest's link made at a booth opens on a share server reading the same store,
/// the guest's phone deletes its post there with the claim it got at the booth (its hash is in the
/// store), and nothing of the kiosk is there: no page, no API, no token.
struct ShareServerTests {
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test func aBoothsLinkOpensOnTheShareServerAndTheGuestsPhoneDeletesItThere() async throws {
        let booth = try KioskFixture(more: ["share.base_url": QueuedShareTests.base])
        defer { booth.remove() }
        await booth.start()
        let serve = try ServeFixture(store: booth.directory + "/store")
        defer { serve.remove() }
        // At the booth: the guest posts, the phone opens the link while the thank-you shows it and
        // takes the delete claim; then the booth sends the post.
        var (token, claim, id, video) = ("", "", "", Data())
        try await booth.application().test(.router) { client in
            id = try await QueuedShareTests.shootAndPost(booth, client, caption: "für zu Hause")
            let item = try #require(booth.kiosk.drain.outbox.item(id: id))
            token = try #require(item.metadata.shareToken)
            video = try Data(contentsOf: URL(fileURLWithPath: item.videoPath))
            #expect(item.metadata.deleteClaim?.count == 64, "the claim's hash goes with the post")
            claim = try await client.execute(uri: "/s/\(token)", method: .get) { response in
                String((response.headers[.setCookie] ?? "").split(separator: ";").first ?? "")
            }
            #expect(claim.hasPrefix(ShareClaims.cookieName + "="))
            try await booth.waitForUpload(id)
        }
        let stored = try PostFeed(store: LocalDirectoryBackend(root: booth.directory + "/store")).metadata(id: id)
        #expect(stored.deleteClaim == ShareClaims.hash(String(claim.dropFirst(ShareClaims.cookieName.count + 1))))

        try await serve.application().test(.router) { client in
            // At home: the page, the video byte for byte and a range, the poster.
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains(#"src="/s/\#(token)/video.mp4""#) && page.contains("für zu Hause"))
                // This phone holds the claim: its page offers the delete; another's does not.
                #expect(HTMLForm.all(in: page).isEmpty, "no cookie, no delete")
            }
            try await client.execute(uri: "/s/\(token)", method: .get, headers: [.cookie: claim]) { response in
                #expect(HTMLForm.all(in: String(buffer: response.body)) == [HTMLForm(method: "post", action: "/s/\(token)/delete")])
                #expect(response.headers[.setCookie] == nil, "a share server hands out no claim")
            }
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get) { response in
                #expect(response.status == .ok && Data(response.body.readableBytesView) == video)
            }
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get, headers: [.range: "bytes=1000-1999"]) { response in
                #expect(response.status == .partialContent && Data(response.body.readableBytesView) == video[1000..<2000])
            }
            // Another phone (no cookie, or a made-up one) cannot delete; the guest's can.
            for headers: HTTPFields in [Self.form, Self.form + [.cookie: "\(ShareClaims.cookieName)=\(String(repeating: "a", count: 64))"]] {
                try await client.execute(uri: "/s/\(token)/delete", method: .post, headers: headers, body: ByteBuffer(string: "confirm=delete")) { response in
                    #expect(response.status == .forbidden)
                }
            }
            try await client.execute(uri: "/s/\(token)/delete", method: .post, headers: Self.form + [.cookie: claim],
                                     body: ByteBuffer(string: "confirm=delete")) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/s/\(token)", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get) { #expect($0.status == .notFound) }
        }
        #expect(!FileManager.default.fileExists(atPath: booth.directory + "/store/posts/\(id).json"), "deleted from the store")
        // And the booth, which still knows the token, opens nothing either.
        try await booth.application().test(.router) { client in
            try await client.execute(uri: "/s/\(token)", method: .get) { #expect($0.status == .notFound) }
        }
    }

    /// Every link that opens nothing gets one answer on a share server: 404, a page saying the video
    /// may not be sent yet and when to try again (Retry-After), in the browser's language.
    @Test func aLinkThatOpensNothingSaysWhenToTryAgainAndNothingMore() async throws {
        let store = NSTemporaryDirectory() + "recorder-serve-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let backend = LocalDirectoryBackend(root: store)
        let now = Date()
        let expired = try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(100), created: now.addingTimeInterval(-30 * 86_400))
        let hidden = try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(100), created: now.addingTimeInterval(-60))
        try PostFeed(store: backend).hide(id: hidden.id)
        let serve = try ServeFixture(store: store, clock: TestClock(at: now))
        defer { serve.remove() }
        try await serve.application().test(.router) { client in
            var bodies = Set<String>()
            for token in [ShareToken.random(), expired.shareToken!, hidden.shareToken!] {
                try await client.execute(uri: "/s/\(token)", method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(response.headers[.retryAfter] == String(SharePage.retrySeconds))
                    bodies.insert(String(buffer: response.body))
                }
            }
            #expect(bodies.count == 1, "the same answer whatever the reason")
            try await client.execute(uri: "/s/\(ShareToken.random())", method: .get, headers: [.acceptLanguage: "de-CH, en;q=0.5"]) { response in
                #expect(String(buffer: response.body).contains(#"lang="de""#))
            }
        }
    }

    /// The share server has the share links, the galleries, the pages' files and a health check:
    /// no route of the kiosk's own (its page, its API, its login, its metrics) answers there, and
    /// no route takes a token.
    @Test func noneOfTheKiosksOwnRoutesIsOnTheShareServer() async throws {
        let booth = try KioskFixture(token: AdminAPITests.token)
        defer { booth.remove() }
        let serve = try ServeFixture(store: booth.directory + "/store")
        defer { serve.remove() }
        let served = serve.services.router().routes
        #expect(served.allSatisfy { $0.access == .public })
        let tops: Set<String> = Set(served.map { (route: KioskRoute) -> String in route.path.split(separator: "/").first.map(String.init) ?? "" })
        #expect(tops == ["s", "g", "assets", "healthz"])
        let kiosk = KioskAPI.router(booth.kiosk).routes.filter { route in !["/s/", "/g/", "/assets/", "/healthz"].contains { route.path.hasPrefix($0) } }
        #expect(kiosk.count > 30)
        try await serve.application().test(.router) { client in
            for route in kiosk {
                let uri = route.path.replacingOccurrences(of: ":id", with: "Ab3dE5fG7h").replacingOccurrences(of: ":token", with: ShareToken.random())
                try await client.execute(uri: uri, method: HTTPRequest.Method(route.method)!, headers: [.authorization: "Bearer \(AdminAPITests.token)"]) { response in
                    #expect(response.status == .notFound, "\(route.method) \(uri): \(response.status)")
                }
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/assets/gallery.js", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/assets/guest.js", method: .get) { #expect($0.status == .notFound, "the booth's page is not here") }
        }
    }

    /// A form posted from another site's page deletes nothing (the phone visiting it holds the
    /// cookie): refused before the route.
    @Test func aCrossSitePostIsRefused() async throws {
        let store = NSTemporaryDirectory() + "recorder-serve-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let backend = LocalDirectoryBackend(root: store)
        let post = try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(100), created: Date(), claim: String(repeating: "b", count: 64))
        let serve = try ServeFixture(store: store)
        defer { serve.remove() }
        let cookie = "\(ShareClaims.cookieName)=\(String(repeating: "b", count: 64))"
        try await serve.application().test(.router) { client in
            for refused: HTTPFields in [[.origin: "https://evil.example"], [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]] {
                try await client.execute(uri: "/s/\(post.shareToken!)/delete", method: .post, headers: Self.form + [.cookie: cookie] + refused,
                                         body: ByteBuffer(string: "confirm=delete")) { #expect($0.status == .forbidden) }
            }
            #expect(FileManager.default.fileExists(atPath: store + "/posts/\(post.id).json"))
        }
    }
}
