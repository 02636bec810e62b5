import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
@testable import Publishing
import StorageUpload
import Testing
@testable import KioskService
import ShareServer
@testable import Settings
@testable import Shooting
@testable import KioskHTTP
@testable import KioskState
import StoreValues
import SystemSupport
import Posting

/// The operator's API (`/api/admin`): the overview and moderation, behind the token.
struct AdminAPITests {
    static let token = "admin-token-for-the-tests-0123"
    static let authorized: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]

    /// `count` posts with small stand-in videos, straight into the kiosk's local store, newest first.
    static func posts(_ count: Int, in fixture: KioskFixture) throws -> (store: LocalDirectoryBackend, ids: [String]) {
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        let now = Date()
        let ids = (0..<count).map { "MODERATE" + String(format: "%02d", $0) }
        for (i, id) in ids.enumerated() {
            let video = Array("stand-in video \(i)".utf8)
            var metadata = try PostMetadata.decode(Data(#"{"id":"x","video":"x.mp4","key":"k","metadataKey":"m","url":"u","ext":"mp4","width":1,"height":1,"durationSeconds":2,"frameRate":15,"codec":"h264","byteSize":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","caption":"c","author":{"id":"a","name":"A"},"createdAt":"2026-01-01T00:00:00Z","camera":"c","likeCount":0,"shareCount":0,"commentCount":0}"#.utf8))
            metadata.rename(to: id, url: store.url(forKey: PostMetadata.videoKey(id: id)))
            metadata.caption = "post \(i)"
            metadata.byteSize = Int64(video.count)
            metadata.sha256 = FileDigest.sha256(video)
            metadata.createdAt = RFC3339.string(now.addingTimeInterval(-Double(i)))
            try store.write(video, key: metadata.key, contentType: "video/mp4")
            try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
            try PostFeed(store: store).index(metadata)
        }
        return (store, ids)
    }

    @Test func everyAdminRouteNeedsTheToken() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        let (store, ids) = try Self.posts(1, in: fixture)
        try await fixture.application().test(.router) { client in
            let admin = KioskAPI.router(fixture.kiosk).routes.filter { $0.path.hasPrefix("/api/admin/") }
            #expect(admin.count >= 6 && admin.allSatisfy { $0.access == .operator })
            for route in admin {
                let uri = route.path.replacingOccurrences(of: ":id", with: ids[0])
                let method = HTTPRequest.Method(route.method)!
                try await client.execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: body(#"{"confirm": "\#(ids[0])"}"#)) { response in
                    #expect(response.status == .unauthorized, "\(method) \(uri)")
                    #expect(object(response)["kind"] as? String == "unauthorized")
                }
            }
            // A wrong token is refused too (more than a few from one client are throttled: 429).
            let wrong: HTTPFields = [.authorization: "Bearer wrong-token-0123456789", .contentType: "application/json"]
            try await client.execute(uri: "/api/admin/posts/\(ids[0])/delete", method: .post, headers: wrong, body: body(#"{"confirm": "\#(ids[0])"}"#)) { response in
                #expect(response.status == .unauthorized)
            }
        }
        // Refused, so nothing changed: still listed, still in the store.
        #expect(try PostFeed(store: store).page(1, size: 10).entries.map(\.id) == ids)
        #expect(try store.stat(key: PostMetadata.videoKey(id: ids[0])) != nil)
    }

    @Test func overviewShowsTheOperatorEverythingButSecrets() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        fixture.kiosk.logger.warning("upload failed, will retry: the store at http://127.0.0.1:1 refused the connection (errno 111)")
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: Self.authorized) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(!text.contains(Self.token), "the token is shown")
                let overview = object(response)
                let settings = try #require(overview["configuration"] as? [[String: Any]])
                let token = settings.first { $0["key"] as? String == "kiosk.token" }
                #expect(token?["value"] as? String == "********")
                #expect(token?["origin"] as? String == "flag")
                #expect(settings.contains { $0["key"] as? String == "kiosk.review_seconds" && $0["value"] as? String == "30" && $0["origin"] as? String == "default" })
                let problems = try #require(overview["problems"] as? [[String: Any]])
                #expect(problems.first?["message"] as? String == "upload failed, will retry: the store at http://127.0.0.1:1 refused the connection (errno 111)")
                #expect(problems.first?["level"] as? String == "warning")
                let disk = try #require(overview["disk"] as? [[String: Any]])
                #expect(Set(disk.compactMap { $0["what"] as? String }) == ["workspace", "outbox", "cache", "store"])
                #expect(disk.allSatisfy { ($0["freeBytes"] as? Int ?? 0) > 0 })
                #expect((overview["status"] as? [String: Any])?["state"] as? String == "idle")
                #expect((overview["outbox"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test func aQueuedPostShowsWhereItGoes() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        // A shot, posted: while the drain is not running, it waits in the outbox.
        try await fixture.kiosk.manager.begin(fixture.kiosk.settings.shotRequest(), countdown: 0)
        await fixture.kiosk.manager.waitForShot()
        let item = try await fixture.kiosk.posting.post(caption: "queued for the store")
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: Self.authorized) { response in
                let queued = try #require((object(response)["outbox"] as? [[String: Any]])?.first)
                #expect(queued["id"] as? String == item.metadata.id)
                #expect(queued["caption"] as? String == "queued for the store")
                #expect(queued["destination"] as? String == StoreDestination.local(path: "\(fixture.directory)/store").description, "\(queued)")
                #expect((queued["videoURL"] as? String)?.hasSuffix("/videos/\(item.metadata.id).mp4") == true)
            }
        }
    }

    @Test func hiddenPostsLeaveTheGalleryAndComeBack() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        let (store, ids) = try Self.posts(3, in: fixture)
        try await fixture.application().test(.router) { client in
            // Played once, so the cache holds it: hiding must not leave it playable from there.
            try await client.execute(uri: "/api/videos/\(ids[1]).mp4", method: .get, headers: Self.authorized) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/admin/posts/\(ids[1])/hide", method: .post, headers: Self.authorized) { response in
                #expect(response.status == .ok)
                #expect(object(response)["hidden"] as? Bool == true)
            }
            try await client.execute(uri: "/api/feed", method: .get, headers: Self.authorized) { response in
                #expect((object(response)["posts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[0], ids[2]])
            }
            try await client.execute(uri: "/api/videos/\(ids[1]).mp4", method: .get, headers: Self.authorized) { response in
                #expect(response.status == .notFound)
                #expect(object(response)["kind"] as? String == "notFound")
            }
            try await client.execute(uri: "/api/admin/hidden", method: .get, headers: Self.authorized) { response in
                #expect((object(response)["posts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[1]])
            }
            // The store keeps it; rebuilding the index does not bring it back.
            #expect(try store.stat(key: PostMetadata.videoKey(id: ids[1])) != nil)
            #expect(try PostFeed(store: store).reindex(poster: Posters.jpeg).added == 0)
            #expect(try PostFeed(store: store).page(1, size: 10).entries.map(\.id) == [ids[0], ids[2]])

            try await client.execute(uri: "/api/admin/posts/\(ids[1])/show", method: .post, headers: Self.authorized) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/feed", method: .get, headers: Self.authorized) { response in
                #expect((object(response)["posts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
            }
            try await client.execute(uri: "/api/videos/\(ids[1]).mp4", method: .get, headers: Self.authorized) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/admin/posts/NOSUCHPOST/hide", method: .post, headers: Self.authorized) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func deletingNeedsConfirmingAndRemovesThePostFromTheStore() async throws {
        let fixture = try KioskFixture(token: Self.token)
        defer { fixture.remove() }
        await fixture.start()
        let (store, ids) = try Self.posts(2, in: fixture)
        let keys = [PostMetadata.videoKey(id: ids[0]), PostMetadata.metadataKey(id: ids[0])]
        try await fixture.application().test(.router) { client in
            for text in ["{}", #"{"confirm": "\#(ids[1])"}"#] {
                try await client.execute(uri: "/api/admin/posts/\(ids[0])/delete", method: .post, headers: Self.authorized, body: body(text)) { response in
                    #expect(response.status == .badRequest)
                    #expect((object(response)["error"] as? String)?.contains(#"{"confirm": "\#(ids[0])"}"#) == true)
                }
            }
            for key in keys { #expect(try store.stat(key: key) != nil, "\(key) went without a confirmed delete") }
            try await client.execute(uri: "/api/admin/posts/\(ids[0])/delete", method: .post, headers: Self.authorized,
                                     body: body(#"{"confirm": "\#(ids[0])"}"#)) { response in
                #expect(response.status == .ok)
                #expect(object(response)["deleted"] as? Bool == true)
            }
            for key in keys { #expect(try store.stat(key: key) == nil, "\(key) is still in the store") }
            try await client.execute(uri: "/api/feed", method: .get, headers: Self.authorized) { response in
                #expect((object(response)["posts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[1]])
            }
            // Deleted already: said so, not found (the CLI's "no input").
            try await client.execute(uri: "/api/admin/posts/\(ids[0])/delete", method: .post, headers: Self.authorized,
                                     body: body(#"{"confirm": "\#(ids[0])"}"#)) { response in
                #expect(response.status == .notFound)
                #expect(object(response)["kind"] as? String == "notFound")
            }
        }
        // Nothing of it is left under feed/ either.
        #expect(try store.list(prefix: PostFeed.folder, startAfter: nil, maxKeys: 10).entries.map(\.key).allSatisfy { !$0.contains(ids[0]) })
    }
}
