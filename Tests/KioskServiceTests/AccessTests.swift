import Shooting
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Publishing
import StorageUpload
import Testing
import SystemSupport
@testable import KioskService
import ShareServer
@testable import KioskHTTP

/// Who may call what: every route of the router is in the access table, each answers only the
/// roles its entry admits, the session cookie works for any token, and nothing the store says is
/// believed about where things are. (Path spellings, the fuzz and the limits are tried against the
/// real server: Tests/security/.)
struct AccessTests {
    static let operatorToken = AdminAPITests.token
    /// What `head -c 24 /dev/urandom | base64` gives: `+` and `/` in it.
    static let boothToken = "Qm+3x/Zr8Kp1Lw9Tn2Vb+4Hc/5Jd6Fs7"

    static func headers(_ token: String?) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let token { fields[.authorization] = "Bearer \(token)" }
        return fields
    }

    @Test func everyRouteOfTheRouterIsInTheTableAndAnswersOnlyItsRoles() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        let (router, table) = KioskAPI.router(fixture.kiosk)
        // Nothing reaches the router but through the table (HEAD is made from each GET).
        let registered = Set(router.routes.filter { $0.method != .head }.map { "\($0.method) \($0.path)" })
        let declared = Set(table.map { "\($0.method) \(RouterPath($0.path))" })
        #expect(registered == declared, "the router has routes the table does not: \(registered.subtracting(declared)), or the reverse: \(declared.subtracting(registered))")
        #expect(table.filter { $0.access == .public }.map(\.path).sorted() == ["/", "/admin", "/assets/:file", "/fleet", "/fleet/:file", "/g/:token",
                                                                               "/g/:token/:id/poster.jpg", "/g/:token/:id/video.mp4", "/g/:token/archive.zip",
                                                                               "/g/:token/posts", "/g/:token/reel.mp4", "/healthz", "/login", "/login",
                                                                               "/logout", "/s/:token", "/s/:token/delete", "/s/:token/loop.gif",
                                                                               "/s/:token/poster.jpg", "/s/:token/take.mp4", "/s/:token/video.mp4"])

        try await fixture.application().test(.router) { client in
            for route in table {
                let uri = route.path.replacingOccurrences(of: ":id", with: "NOSUCHPOST").replacingOccurrences(of: ":file", with: "NOSUCHPOST.mp4")
                    .replacingOccurrences(of: ":token", with: "nosuchtoken0000000000x")
                let method = HTTPRequest.Method(route.method)!
                for (who, token) in [("nobody", nil), ("booth", Self.boothToken), ("operator", Self.operatorToken)] as [(String, String?)] {
                    // (the live streams would not end: their heads are what is judged)
                    let asked = route.path.hasSuffix("events") || route.path.hasSuffix(".mjpeg") ? HTTPRequest.Method.head : method
                    fixture.kiosk.health.beat()
                    try await client.execute(uri: uri, method: asked, headers: Self.headers(token), body: ByteBuffer(string: "{}")) { response in
                        let admitted = route.access.admits(who == "nobody" ? nil : who == "booth" ? .booth : .operator)
                        if admitted {
                            #expect(response.status != .unauthorized && response.status != .forbidden, "\(who): \(method) \(uri) is \(route.access.rawValue) but answered \(response.status)")
                        } else {
                            #expect(response.status == (who == "nobody" ? .unauthorized : .forbidden), "\(who): \(method) \(uri) is \(route.access.rawValue) but answered \(response.status)")
                            #expect(!(200..<300).contains(response.status.code))
                        }
                        #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(method) \(uri)")
                    }
                }
            }
            // A monitor without a token learns ok or not ok, never why.
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(object(response)["reasons"] == nil && object(response)["healthy"] != nil)
            }
        }
    }

    @Test func aSessionCookieForAnyTokenAndWrongTokensAreThrottled() async throws {
        // Time stands still for the throttle: a block of 2 s ran out before the next request on a
        // loaded CI machine (its requests took over a second each), and the right token got in.
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, throttle: LoginThrottle(clock: TestClock(), hold: { _ in }))
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            // The booth's token has + and /: JSON carries it as it is, and the cookie is not the token.
            var cookie = ""
            try await client.execute(uri: "/login", method: .post, headers: [.contentType: "application/json", .origin: "http://localhost"],
                                     body: ByteBuffer(string: #"{"token": "\#(Self.boothToken)"}"#)) { response in
                #expect(response.status == .ok && object(response)["role"] as? String == "booth")
                cookie = String((response.headers[.setCookie] ?? "").split(separator: ";")[0])
                #expect(cookie.hasPrefix("recorder_session=v1.booth.") && !cookie.contains(Self.boothToken))
            }
            let withCookie: HTTPFields = [.cookie: cookie, .contentType: "application/json", .origin: "http://localhost"]
            try await client.execute(uri: "/api/status", method: .get, headers: withCookie) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: withCookie) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/stop", method: .post, headers: withCookie, body: ByteBuffer(string: "{}")) { #expect($0.status == .ok) }
            // Logging out clears it.
            try await client.execute(uri: "/logout", method: .post, headers: withCookie, body: ByteBuffer(string: "{}")) { response in
                let cleared = SetCookie.only(in: response.headers)
                #expect(cleared?.name == "recorder_session" && cleared?.maxAge == 0, "\(response.headers)")
            }
            // A cookie nobody issued is no credential, and the browser is told to drop it.
            try await client.execute(uri: "/api/status", method: .get, headers: [.cookie: "recorder_session=operator.00ff"]) { response in
                #expect(response.status == .unauthorized)
                let cleared = SetCookie.only(in: response.headers)
                #expect(cleared?.name == "recorder_session" && cleared?.maxAge == 0, "\(response.headers)")
            }
            // Five more wrong tries are free (one was the cookie); then the client is slowed (429,
            // held back), but a right token is never refused (CrowdAccessTests).
            for attempt in 1...LoginThrottle.freeFailures {
                try await client.execute(uri: "/login", method: .post, headers: jsonHeaders, body: ByteBuffer(string: #"{"token": "wrong-\#(attempt)-Kp1Lw9Tn2Vb4Hc5Jd6Fs7"}"#)) { response in
                    #expect(response.status == (attempt < LoginThrottle.freeFailures ? .unauthorized : .tooManyRequests), "attempt \(attempt): \(response.status)")
                    if response.status == .tooManyRequests { #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1) }
                    #expect(response.headers[.setCookie] == nil)
                }
            }
            // The share page stays open to everybody on the same address (a guest behind the same NAT).
            try await client.execute(uri: "/s/nosuchtoken0000000000x", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test func theThrottleCountsPerClientAndForgetsOnSuccess() {
        let throttle = LoginThrottle()
        let guesser = ClientAddress(try? SocketAddress(ipAddress: "192.168.1.66", port: 5000))
        let booth = ClientAddress(try? SocketAddress(ipAddress: "127.0.0.1", port: 5001))
        let start = ContinuousClock.now
        for _ in 1...LoginThrottle.freeFailures { #expect(throttle.failed(guesser, now: start) == nil) }
        #expect(throttle.failed(guesser, now: start) == 2)
        #expect(throttle.failed(guesser, now: start) == 4)
        #expect(throttle.wait(guesser, now: start) == 4)
        #expect(throttle.wait(guesser, now: start + .seconds(5)) == nil)
        #expect(throttle.wait(booth, now: start) == nil)
        throttle.succeeded(guesser)
        #expect(throttle.wait(guesser, now: start) == nil)
        // One machine's IPv6 addresses are one client; another /64 is another.
        let a = ClientAddress(try? SocketAddress(ipAddress: "2001:db8:1:2::10", port: 1))
        let b = ClientAddress(try? SocketAddress(ipAddress: "2001:db8:1:2:ffff::20", port: 1))
        let c = ClientAddress(try? SocketAddress(ipAddress: "2001:db8:1:3::10", port: 1))
        #expect(a == b && a != c && a.key == "2001:db8:1:2::/64")
        #expect(booth.isLoopback && !guesser.isLoopback && ClientAddress(nil).key == "unknown")
    }

    @Test func nothingTheStoreSaysAboutWhereThingsAreIsBelieved() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken)
        defer { fixture.remove() }
        await fixture.start()
        let (store, ids, tokens) = try ShareAPITests.posts(3, in: fixture)
        // A secret beside the store, and a post whose metadata points its poster (and video) at it.
        let secret = fixture.directory + "/secret.txt"
        try Data("the operator's secret".utf8).write(to: URL(fileURLWithPath: secret))
        var tampered = try PostFeed(store: store).metadata(id: ids[0])
        tampered.thumbnailKey = "../secret.txt"
        tampered.key = "../secret.txt"
        tampered.shareURL = "https://evil.example/phish"
        try store.write(Array(try tampered.jsonData()), key: tampered.metadataKey, contentType: "application/json")
        // Another whose hidden-marker cannot be read (a directory where the marker would be): the
        // store cannot say it is visible, so it is not.
        let visible = PostFeed.indexKey(try PostFeed(store: store).metadata(id: ids[1]))
        try FileManager.default.createDirectory(atPath: fixture.directory + "/store/feed-hidden/" + visible.dropFirst("feed/".count), withIntermediateDirectories: true)

        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/thumbs/\(ids[0]).jpg", method: .get, headers: Self.headers(Self.operatorToken)) { response in
                #expect(response.status == .notFound)
                #expect(!String(buffer: response.body).contains("secret"))
            }
            try await client.execute(uri: "/api/videos/\(ids[0]).mp4", method: .get, headers: Self.headers(Self.operatorToken)) { response in
                #expect(!String(buffer: response.body).contains("secret"))
                // The video is the post's own (`videos/<id>.mp4`), whatever its metadata says.
                #expect(Array(response.body.readableBytesView) == (try? store.read(key: PostMetadata.videoKey(id: ids[0]), limit: 1 << 20)) ?? [])
            }
            // A link that points elsewhere is never shown: the kiosk makes its own.
            try await client.execute(uri: "/api/posts/\(ids[0])/share", method: .get, headers: Self.headers(Self.operatorToken)) { response in
                let url = object(response)["shareURL"] as? String ?? ""
                #expect(!url.contains("evil.example") && url.hasSuffix("/s/\(tokens[0])"), "\(url)")
            }
            try await client.execute(uri: "/api/feed", method: .get, headers: Self.headers(Self.operatorToken)) { response in
                #expect(!String(buffer: response.body).contains("evil.example"))
            }
            for uri in ["/api/videos/\(ids[1]).mp4", "/api/thumbs/\(ids[1]).jpg", "/s/\(tokens[1])"] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(Self.operatorToken)) { response in
                    #expect(response.status == .notFound, "\(uri) of a post the store cannot say is visible: \(response.status)")
                }
            }
            // The third, untouched, still plays and shares.
            try await client.execute(uri: "/s/\(tokens[2])", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func theBoothSeesOnlyTheShareLinksOfItsOwnPosts() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        let (_, ids, _) = try ShareAPITests.posts(1, in: fixture)
        try await fixture.application().test(.router) { client in
            // Somebody else's post: the booth gets what an unknown post gets.
            try await client.execute(uri: "/api/posts/\(ids[0])/share", method: .get, headers: Self.headers(Self.boothToken)) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/posts/\(ids[0])/qr.svg", method: .get, headers: Self.headers(Self.boothToken)) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/posts/\(ids[0])/share", method: .get, headers: Self.headers(Self.operatorToken)) { #expect($0.status == .ok) }
            // Its own: a shot, posted here.
            try await client.execute(uri: "/api/shoot", method: .post, headers: Self.headers(Self.boothToken), body: ByteBuffer(string: "{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            var id = ""
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot()).id
            try await client.execute(uri: "/api/post", method: .post, headers: Self.headers(Self.boothToken), body: ByteBuffer(string: #"{"id": "\#(shot)", "caption": "mine"}"#)) { response in
                #expect(response.status == .accepted)
                id = object(response)["id"] as? String ?? ""
            }
            try await fixture.waitForUpload(id)
            try await client.execute(uri: "/api/posts/\(id)/share", method: .get, headers: Self.headers(Self.boothToken)) { response in
                #expect(response.status == .ok, "\(response.status)")
            }
            try await client.execute(uri: "/api/attract", method: .get, headers: Self.headers(Self.boothToken)) { response in
                let posts = (object(response)["posts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
                #expect(posts.contains(id) && posts.contains(ids[0]))
                #expect(!String(buffer: response.body).contains("share"))
            }
        }
    }
}
