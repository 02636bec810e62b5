import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Publishing
import StorageUpload
import Testing
@testable import KioskService
@testable import KioskWords
@testable import Settings
@testable import Library
@testable import KioskState
import SystemSupport

/// The share page a guest's phone opens (`/s/<token>`): the one post, no API token asked, and the
/// same 404 for every link that opens nothing.
struct ShareAPITests {
    static let authorized = AdminAPITests.authorized

    /// Posts as `AdminAPITests.posts` makes them, each with a share token (`expired` ones past their link's end).
    static func posts(_ count: Int, captions: [String] = [], expired: Set<Int> = [], in fixture: KioskFixture) throws
        -> (store: LocalDirectoryBackend, ids: [String], tokens: [String]) {
        let (store, ids) = try AdminAPITests.posts(count, in: fixture)
        var tokens: [String] = []
        for (i, id) in ids.enumerated() {
            var metadata = try PostFeed(store: store).metadata(id: id)
            metadata.shareToken = ShareToken.random()
            if i < captions.count { metadata.caption = captions[i] }
            if expired.contains(i) { metadata.shareExpiresAt = RFC3339.string(Date().addingTimeInterval(-60)) }
            try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
            tokens.append(metadata.shareToken!)
        }
        return (store, ids, tokens)
    }

    @Test func aShareLinkOpensItsOnePostWithNoTokenAndNothingElse() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token)
        defer { fixture.remove() }
        await fixture.start()
        let caption = "<script>alert(1)</script> Tanz 💃 & \"Freude\""
        let (store, ids, tokens) = try Self.posts(2, captions: [caption], in: fixture)
        let video = try #require(try store.read(key: PostMetadata.videoKey(id: ids[0]), limit: 1 << 20))
        try await fixture.application().test(.router) { client in
            // The booth asks for the link (with the API token); it is this kiosk's share page.
            try await client.execute(uri: "/api/posts/\(ids[0])/share", method: .get, headers: Self.authorized) { response in
                #expect(response.status == .ok)
                #expect((object(response)["shareURL"] as? String)?.hasSuffix("/s/\(tokens[0])") == true, "\(object(response))")
                #expect(object(response)["shareExpiresAt"] is String)
            }
            // The phone opens it with no token, no cookie.
            try await client.execute(uri: "/s/\(tokens[0])", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                // No other site learns the token from a Referer (same-origin: the page's own form must carry its Origin).
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
                let page = String(buffer: response.body)
                #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; Tanz 💃 &amp; &quot;Freude&quot;"), "the caption is not escaped: \(page)")
                #expect(!page.contains("<script>alert"))
                #expect(page.contains(#"src="/s/\#(tokens[0])/video.mp4""#) && page.contains("download="))
                // Nothing of the other post, and not even this post's id in a link to the API.
                #expect(!page.contains(ids[1]) && !page.contains(tokens[1]) && !page.contains("/api/"))
            }
            try await client.execute(uri: "/s/\(tokens[0])/video.mp4", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView) == video)
            }
            try await client.execute(uri: "/s/\(tokens[0])/video.mp4", method: .get, headers: [.range: "bytes=2-5"]) { response in
                #expect(response.status == .partialContent)
                #expect(Array(response.body.readableBytesView) == Array(video[2...5]))
            }
            // The share route opens no door to the API.
            try await client.execute(uri: "/api/feed", method: .get) { #expect($0.status == .unauthorized) }
        }
    }

    @Test func aGuestDeletesTheirPostWithItsLinkAndOnlyThat() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token)
        defer { fixture.remove() }
        await fixture.start()
        let (store, ids, tokens) = try Self.posts(2, in: fixture)
        let keys = [PostMetadata.videoKey(id: ids[0]), PostMetadata.metadataKey(id: ids[0])]
        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        let confirm = body("confirm=delete")
        try await fixture.application().test(.router) { client in
            // The guest's phone opens the link while the booth's thank-you shows it: the page offers
            // the delete, as a second step (a form inside a closed details element), and the phone
            // gets the post's claim (CrowdAccessTests has the phones that do not).
            fixture.kiosk.guests.handle(.posted(id: ids[0]))
            let claim = try await client.execute(uri: "/s/\(tokens[0])", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(HTMLForm.all(in: page) == [HTMLForm(method: "post", action: "/s/\(tokens[0])/delete")], "\(page)")
                // (the guest's words by their keys, in the page's language)
                #expect(page.contains("<details class=\"erase\">") && page.contains(GuestStrings.text(.deleteMine)) && page.contains(GuestStrings.text(.deleteForGood)))
                return SetCookie.only(in: response.headers)?.pair ?? ""
            }
            var form = form
            form[.cookie] = claim
            // Played once, so the cache holds it.
            try await client.execute(uri: "/s/\(tokens[0])/video.mp4", method: .get) { #expect($0.status == .ok) }
            #expect(fixture.kiosk.library.cache.entries().count == 1)
            // Not confirmed, not a form, from another site, or with another token: nothing is deleted.
            try await client.execute(uri: "/s/\(tokens[0])/delete", method: .post, headers: form, body: body("")) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/s/\(tokens[0])/delete", method: .post, headers: [.contentType: "application/json"],
                                     body: body(#"{"confirm": "delete"}"#)) { #expect($0.status == .badRequest) }
            var crossSite = form
            crossSite[.origin] = "https://evil.example"
            try await client.execute(uri: "/s/\(tokens[0])/delete", method: .post, headers: crossSite, body: confirm) { #expect($0.status == .forbidden) }
            var wrong = ""
            try await client.execute(uri: "/s/\(ShareToken.random())/delete", method: .post, headers: form, body: confirm) { response in
                #expect(response.status == .notFound)
                wrong = String(buffer: response.body)
            }
            try await client.execute(uri: "/s/\(tokens[0])/delete", method: .get) { #expect($0.status != .ok) }
            for key in keys { #expect(try store.stat(key: key) != nil, "\(key) went without a confirmed delete") }

            try await client.execute(uri: "/s/\(tokens[0])/delete", method: .post, headers: form, body: confirm) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(GuestStrings.text(.deletedForGood)))
            }
            for key in keys + [PostMetadata.thumbnailKey(id: ids[0])] { #expect(try store.stat(key: key) == nil, "\(key) is still in the store") }
            #expect(try store.list(prefix: PostFeed.folder, startAfter: nil, maxKeys: 10).entries.map(\.key).allSatisfy { !$0.contains(ids[0]) })
            #expect(fixture.kiosk.library.cache.entries().isEmpty, "the cached copy is still there")
            // The link now answers as any unknown link does; a second delete too.
            try await client.execute(uri: "/s/\(tokens[0])", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/s/\(tokens[0])/delete", method: .post, headers: form, body: confirm) { response in
                #expect(response.status == .notFound && String(buffer: response.body) == wrong)
            }
            // The other post is whole, and the operator sees a count, not which.
            try await client.execute(uri: "/s/\(tokens[1])", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: Self.authorized) { response in
                #expect(object(response)["guestDeletions"] as? Int == 1)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: Self.authorized) { response in
                #expect(metricValues(String(buffer: response.body))["recorder_posts_deleted_by_guests_total"] == 1)
            }
        }
    }

    @Test func everyLinkThatOpensNothingGetsTheSameAnswer() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token)
        defer { fixture.remove() }
        await fixture.start()
        let (_, ids, tokens) = try Self.posts(4, expired: [3], in: fixture)
        try await fixture.application().test(.router) { client in
            // Both still open now.
            for token in tokens[0...1] {
                try await client.execute(uri: "/s/\(token)", method: .get) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/api/admin/posts/\(ids[0])/hide", method: .post, headers: Self.authorized) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/admin/posts/\(ids[1])/delete", method: .post, headers: Self.authorized,
                                     body: body(#"{"confirm": "\#(ids[1])"}"#)) { #expect($0.status == .ok) }
            var answers: [String: (HTTPResponse.Status, String)] = [:]
            let asked = [
                "hidden post": "/s/\(tokens[0])", "hidden post's video": "/s/\(tokens[0])/video.mp4",
                "deleted post": "/s/\(tokens[1])", "deleted post's video": "/s/\(tokens[1])/video.mp4",
                "expired link": "/s/\(tokens[3])", "expired link's video": "/s/\(tokens[3])/video.mp4",
                "wrong token": "/s/\(ShareToken.random())", "wrong token's video": "/s/\(ShareToken.random())/video.mp4",
                "a post id for a token": "/s/\(ids[2])", "a malformed token": "/s/not-a-token",
            ]
            for (what, uri) in asked {
                try await client.execute(uri: uri, method: .get) { response in
                    answers[what] = (response.status, String(buffer: response.body))
                }
            }
            let first = try #require(answers["wrong token"])
            #expect(first.0 == .notFound)
            #expect(first.1.contains(GuestStrings.text(.shareGone)), "the gone page, by its key: \(first.1)")
            for (what, answer) in answers {
                #expect(answer.0 == first.0 && answer.1 == first.1, "\(what): \(answer.0) differs from a wrong token's answer")
            }
            // The post no one touched still opens.
            try await client.execute(uri: "/s/\(tokens[2])", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func linksPointAtTheKioskPageOnlyWhereNothingElseServes() throws {
        let local = LocalDirectoryBackend(root: "/tmp/nowhere")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let page = ShareLinks(expiresSeconds: 3600, pageBase: "http://192.168.1.20:8080/")
        let link = try #require(page.link(id: "Ab3dE5fG7h", key: "videos/Ab3dE5fG7h.mp4", token: "T0k3nT0k3nT0k3nT0k3nT0", store: local, at: now))
        #expect(link.url == "http://192.168.1.20:8080/s/T0k3nT0k3nT0k3nT0k3nT0")
        #expect(link.expiresAt == RFC3339.string(now.addingTimeInterval(3600)))
        // No token (an older post) or no kiosk (the CLI): no link.
        #expect(page.link(id: "Ab3dE5fG7h", key: "videos/Ab3dE5fG7h.mp4", token: nil, store: local, at: now) == nil)
        #expect(ShareLinks().link(id: "Ab3dE5fG7h", key: "videos/Ab3dE5fG7h.mp4", token: "T0k3nT0k3nT0k3nT0k3nT0", store: local) == nil)
        // A proxy's template with the token; a plain public address does not expire.
        let proxied = ShareLinks(baseURL: "https://booth.example.com/s/{token}", expiresSeconds: 7200, pageBase: "http://10.0.0.2:8080")
        let viaProxy = try #require(proxied.link(id: "Ab3dE5fG7h", key: "k", token: "T0k3nT0k3nT0k3nT0k3nT0", store: local, at: now))
        #expect(viaProxy.url == "https://booth.example.com/s/T0k3nT0k3nT0k3nT0k3nT0" && viaProxy.expiresAt == RFC3339.string(now.addingTimeInterval(7200)))
        #expect(proxied.link(id: "Ab3dE5fG7h", key: "k", token: nil, store: local, at: now) == nil)
        let cdn = try #require(ShareLinks(baseURL: "https://cdn.example.com/{key}").link(id: "Ab3dE5fG7h", key: "videos/Ab3dE5fG7h.mp4", store: local))
        #expect(cdn.url == "https://cdn.example.com/videos/Ab3dE5fG7h.mp4" && cdn.expiresAt == nil)
        // Tokens: 22 letters and digits, never the same twice here.
        let made = (0..<1000).map { _ in ShareToken.random() }
        #expect(Set(made).count == made.count && made.allSatisfy(ShareToken.isValid))
        #expect(!ShareToken.isValid("Ab3dE5fG7h") && !ShareToken.isValid("T0k3nT0k3nT0k3nT0k3n/."))
    }
}
