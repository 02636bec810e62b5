import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
@testable import Settings
@testable import Publishing
import StorageUpload
import Synchronization
import Testing
import VideoCapture
@testable import KioskService
import ShareServer
import SystemSupport
@testable import Shooting
@testable import KioskWords
@testable import KioskHTTP
@testable import KioskState

let jsonHeaders: HTTPFields = [.contentType: "application/json"]

func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

/// The response's JSON object; an empty one (and a recorded issue) when it is not one.
func object(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    guard let value = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any] else {
        Issue.record("not a JSON object: \(String(buffer: response.body))", sourceLocation: sourceLocation)
        return [:]
    }
    return value
}

@Suite(.serialized) struct KioskAPITests {
    /// While idle, `/api/sound` gives the meter the test beep's level a few times a second: it
    /// reaches the beep (-6 dBFS) and falls back to silence between beeps.
    @Test func idleSoundLevelFollowsTheBeep() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            var peaks: [Double] = []
            // Until both a beep and a silence were seen, for at most 15 s: on a loaded machine the
            // beep's chunks come late and bunched, and a few asks in a row may all see a beep.
            for _ in 0..<75 where !((peaks.max() ?? -200) > -12 && (peaks.min() ?? 0) < -40) {
                try await client.execute(uri: "/api/sound", method: .get) { response in
                    #expect(response.status == .ok)
                    let level = object(response)
                    #expect(level["peakDBFS"] != nil && level["rmsDBFS"] != nil, "\(level)")
                    if let peak = level["peakDBFS"] as? Double { peaks.append(peak) }
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect((peaks.max() ?? -200) > -12 && (peaks.min() ?? 0) < -40, "peaks \(peaks)")
        }
    }

    /// A guest's Delete in review: only the shot it names, only the current one; a wrong or
    /// missing id deletes nothing.
    @Test func discardDeletesOnlyTheNamedCurrentShot() async throws {
        let fixture = try KioskFixture(seconds: 1, countdown: 0)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot())
            try await client.execute(uri: "/api/shot/current/discard", method: .post, headers: jsonHeaders, body: body("{}")) { response in
                #expect(response.status == .badRequest)
                #expect(object(response)["guestKey"] as? String == "tryAgain")
            }
            try await client.execute(uri: "/api/shot/current/discard", method: .post, headers: jsonHeaders,
                                     body: body(#"{"id": "an-older-one"}"#)) { response in
                #expect(response.status == .notFound)
                #expect(fixture.kiosk.manager.workspace.currentShotID() == shot.id)
            }
            try await client.execute(uri: "/api/shot/current/discard", method: .post, headers: jsonHeaders,
                                     body: body(#"{"id": "\#(shot.id)"}"#)) { response in
                #expect(response.status == .ok)
                #expect(object(response)["currentShot"] == nil)
            }
            #expect(fixture.kiosk.manager.workspace.currentShotID() == nil)
            #expect(!FileManager.default.fileExists(atPath: shot.videoPath))
        }
    }

    @Test func statusHealthAndPage() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(response.status == .ok)
                let status = object(response)
                #expect(status["state"] as? String == "idle")
                #expect((status["camera"] as? [String: Any])?["present"] as? Bool == true)
                // The test pattern's shots have its beep: the page shows a meter, not "no microphone".
                let sound = status["sound"] as? [String: Any]
                #expect(sound?["source"] as? String == "test beep" && sound?["muted"] as? Bool == false, "\(String(describing: sound)) camera \(String(describing: status["camera"]))")
                #expect((status["outbox"] as? [String: Any])?["depth"] as? Int == 0)
                #expect((status["disk"] as? [String: Any])?["workspaceFreeBytes"] as? Int ?? 0 > 0)
            }
            // The loop's heartbeat, kept beating while /healthz is asked: on a loaded CI machine
            // (every suite at once on 2 cores) one tick could be over 10 s old by the time the
            // request was judged (ci9: 503, the test took 51 s).
            let heartbeat = Task { while !Task.isCancelled { fixture.kiosk.health.beat(); try? await Task.sleep(for: .milliseconds(500)) } }
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(object(response)["healthy"] as? Bool == true)
            }
            heartbeat.cancel()
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                let page = String(buffer: response.body)
                #expect(page.contains("id=\"record\"") && page.contains(#"src="/assets/guest.js""#))
                // Self-contained: nothing loaded from elsewhere; the guest's words put in.
                #expect(!page.contains("http://") && !page.contains("https://"))
                #expect(page.contains(#""record":"Record""#) && !page.contains("/*STRINGS*/"))
                // No inline script or style may run: the policy says so, and the page needs none.
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") && policy.contains("style-src 'self'") && !policy.contains("unsafe"), "\(policy)")
            }
            // Its scripts and styles are files of their own, with their types; nothing else is served there.
            try await client.execute(uri: "/assets/common.js", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("/api/events"))
            }
            try await client.execute(uri: "/assets/guest.css", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "text/css; charset=utf-8")
            }
            for missing in ["/assets/guest.html", "/assets/package.json", "/assets/nothing.js", "/assets/..%2Fguest.js"] {
                try await client.execute(uri: missing, method: .get) { response in
                    #expect(response.status == .notFound, "\(missing): \(response.status)")
                }
            }
            try await client.execute(uri: "/admin", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("recorder kiosk: operator"))
            }
        }
    }

    /// HEAD answers like GET without a body (uptime monitors), a route asked with the wrong method
    /// is 405 with Allow, and an unknown path is a JSON error like every other failure.
    @Test func headWrongMethodsAndUnknownRoutes() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        fixture.kiosk.health.beat()
        try await fixture.application().test(.router) { client in
            let routes = KioskAPI.router(fixture.kiosk).routes
            for route in routes where route.method == "GET" {
                let path = route.path
                let uri = path.replacingOccurrences(of: ":file", with: "nosuchpost.mp4")
                try await client.execute(uri: uri, method: .head) { response in
                    // Only what names a post may be missing (no such post, no shot yet, no such share
                    // token or gallery), or what is not set up (the Wi-Fi code without kiosk.wifi_ssid, the
                    // branding frame without shoot.overlay): every other GET route answers.
                    #expect(response.status != .methodNotAllowed
                            && (response.status != .notFound || uri.hasSuffix(".mp4") || uri.contains("/posts/:id/") || uri.hasPrefix("/s/")
                                || uri.hasPrefix("/g/") || uri.hasPrefix("/api/admin/galleries/")
                                || uri == "/api/wifi/qr.svg" || uri == "/api/admin/frame.png"),
                            "HEAD \(uri): \(response.status)")
                    #expect(response.body.readableBytes == 0, "HEAD \(uri) sent a body")
                }
                // (a path that takes a PUT as well, the settings, answers it)
                if routes.contains(where: { $0.path == path && $0.method == "PUT" }) { continue }
                try await client.execute(uri: uri, method: .put) { response in
                    #expect(response.status == .methodNotAllowed, "PUT \(uri)")
                    // (a path with a POST too, /login, allows it)
                    let allowed = routes.contains { $0.path == path && $0.method == "POST" } ? "GET, POST, HEAD" : "GET, HEAD"
                    #expect(response.headers[.allow] == allowed, "\(uri): \(response.headers[.allow] ?? "no Allow")")
                    #expect(object(response)["kind"] as? String == "methodNotAllowed")
                }
            }
            // The loop over the routes takes a while on a loaded machine: tick first, as the camera
            // service would, or health rightly says the camera loop is stuck.
            fixture.kiosk.health.beat()
            try await client.execute(uri: "/healthz", method: .head) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/shoot", method: .get) { response in
                #expect(response.status == .methodNotAllowed && response.headers[.allow] == "POST")
                #expect(object(response)["kind"] as? String == "methodNotAllowed")
            }
            try await client.execute(uri: "/no/such/route", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(object(response)["kind"] as? String == "notFound")
                #expect(object(response)["status"] as? Int == 404 && object(response)["guestKey"] as? String == "notSaved")
            }
            #expect(await fixture.kiosk.manager.recordState == .idle)
        }
    }

    @Test func shootConflictPlaybackWithRangesPostAndMetrics() async throws {
        // 8 s: the test must catch the shot while it records (to be refused a post), polling the
        // manager; under CI's load a 2 s recording came and went between two polls.
        let fixture = try KioskFixture(seconds: 8, countdown: 1)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            var counting: [String: Any] = [:]
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { response in
                #expect(response.status == .accepted)
                counting = object(response)
                #expect(counting["state"] as? String == "countdown")
            }
            // A second shoot while one is under way is a conflict, of kind busy (the CLI's 75).
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { response in
                #expect(response.status == .conflict)
                let error = object(response)
                #expect(error["kind"] as? String == "busy")
                #expect(error["status"] as? Int == 409 && error["guestKey"] as? String == "busy")
                // A guest is told in plain words (GuestWording), without the operator's detail.
                #expect(error["guestMessage"] as? String == GuestWording.busy)
            }
            // Posting while recording would race the next shot: refused too. (The countdown
            // counts on the fixture's clock: it is moved on, second by second.)
            try await fixture.finishCountdown()
            try await fixture.waitFor("recording")
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(#"{"id": "x", "caption": "x"}"#)) { response in
                #expect(response.status == .conflict)
            }
            try await fixture.waitFor("idle")
            // Statuses say which is newer: the same run, a higher revision after the shot's
            // countdown, recording and finishing (a page drops a status older than what it shows).
            try await client.execute(uri: "/api/status", method: .get) { response in
                let idle = object(response)
                #expect(idle["run"] as? String == counting["run"] as? String && (idle["run"] as? String)?.isEmpty == false)
                #expect((idle["revision"] as? Int ?? 0) >= (counting["revision"] as? Int ?? .max) + 3, "\(idle["revision"] ?? "none") after \(counting["revision"] ?? "none")")
            }
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot())
            let size = shot.byteSize
            #expect(shot.durationSeconds > 1.5)

            try await client.execute(uri: "/api/shot/current/video.mp4", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.body.readableBytes == Int(size))
                #expect(response.headers[.contentType] == "video/mp4")
            }
            try await client.execute(uri: "/api/shot/current/video.mp4", method: .get, headers: [.range: "bytes=0-99"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 0-99/\(size)")
                #expect(response.body.readableBytes == 100)
                // An MP4 starts with its ftyp box.
                #expect(String(decoding: response.body.getBytes(at: 4, length: 4) ?? [], as: UTF8.self) == "ftyp")
            }
            try await client.execute(uri: "/api/shot/current/video.mp4", method: .get, headers: [.range: "bytes=-10"]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes \(size - 10)-\(size - 1)/\(size)")
                #expect(response.body.readableBytes == 10)
            }
            try await client.execute(uri: "/api/shot/current/video.mp4", method: .get, headers: [.range: "bytes=\(size)-"]) { response in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */\(size)")
            }

            let caption = "Booth 👩‍👩‍👧 مرحبا\nsecond line"
            let captionJSON = String(decoding: try JSONSerialization.data(withJSONObject: ["id": shot.id, "caption": caption]), as: UTF8.self)
            let id = try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(captionJSON)) { response in
                #expect(response.status == .accepted)
                return try #require(object(response)["id"] as? String)
            }
            // Posting the same shot twice is refused with the CLI's data-error status.
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(captionJSON)) { response in
                #expect(response.status == .badRequest)
                #expect(object(response)["kind"] as? String == "badData")
            }
            // A posted shot is not the guest's to delete any more.
            try await client.execute(uri: "/api/shot/current/discard", method: .post, headers: jsonHeaders,
                                     body: body(#"{"id": "\#(shot.id)"}"#)) { response in
                #expect(response.status == .badRequest)
                #expect(object(response)["kind"] as? String == "badData")
                #expect(fixture.kiosk.manager.workspace.currentShotID() == shot.id)
            }
            // The drain sends it up by itself.
            fixture.kiosk.drain.start()
            defer { fixture.kiosk.drain.stop() }
            let video = "\(fixture.directory)/store/videos/\(id).mp4"
            let end = ContinuousClock.now + .seconds(30)
            while !FileManager.default.fileExists(atPath: "\(fixture.directory)/store/posts/\(id).json") && ContinuousClock.now < end {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(FileManager.default.fileExists(atPath: video))
            let metadata = try #require(FileManager.default.contents(atPath: "\(fixture.directory)/store/posts/\(id).json"))
            let posted = try #require(JSONSerialization.jsonObject(with: metadata) as? [String: Any])
            #expect(posted["caption"] as? String == caption)
            #expect(posted["byteSize"] as? Int == Int(size))

            // The metadata is stored before the upload is confirmed, indexed and taken off the queue:
            // the status says so a moment later.
            var outbox: [String: Any] = [:]
            while ContinuousClock.now < end {
                try await client.execute(uri: "/api/status", method: .get) { response in
                    outbox = (object(response)["outbox"] as? [String: Any]) ?? [:]
                }
                if outbox["lastUploaded"] as? String == id { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(outbox["lastUploaded"] as? String == id)
            #expect(outbox["depth"] as? Int == 0)
            // The gallery lists the post and plays it through the cache, with ranges.
            try await client.execute(uri: "/api/feed?page=1", method: .get) { response in
                #expect(response.status == .ok)
                let posts = try #require(object(response)["posts"] as? [[String: Any]])
                #expect(posts.first?["id"] as? String == id)
                #expect(posts.first?["caption"] as? String == "Booth 👩‍👩‍👧 مرحبا")
            }
            let original = try #require(FileManager.default.contents(atPath: video))
            for _ in 0..<2 {  // from the store, then from memory
                try await client.execute(uri: "/api/videos/\(id).mp4", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(Data(response.body.readableBytesView) == original)
                }
                try await client.execute(uri: "/api/videos/\(id).mp4", method: .get, headers: [.range: "bytes=100-199"]) { response in
                    #expect(response.status == .partialContent)
                    #expect(response.headers[.contentRange] == "bytes 100-199/\(size)")
                    #expect(Data(response.body.readableBytesView) == original[100...199])
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                let values = metricValues(text)
                #expect(values[#"recorder_shots_total{result="ok"}"#] == 1, "\(text)")
                // The test pattern's shot has its beep.
                #expect(values[#"recorder_shots_sound_total{sound="with"}"#] == 1, "\(text)")
                #expect(values["recorder_sound_overruns_total"] == 0)
                #expect(values["recorder_posts_queued_total"] == 1)
                #expect(values["recorder_posts_uploaded_total"] == 1)
                #expect(values["recorder_upload_bytes_total"] == Double(size))
                #expect(values["recorder_outbox_depth"] == 0)
                #expect(values["recorder_camera_up"] == 1)
                #expect(values["recorder_frames_captured_total"] == Double(shot.frames))
            }
        }
    }

    @Test func galleryPagesTheFeedAndRefusesBadRequests() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        // 13 posts (metadata and index objects only) straight into the local store.
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        let now = Date()
        let ids = (0..<13).map { "GALLERY" + String(format: "%03d", $0) }
        for (i, id) in ids.enumerated() {
            var metadata = try PostMetadata.decode(Data(#"{"id":"x","video":"x.mp4","key":"k","metadataKey":"m","url":"u","ext":"mp4","width":1,"height":1,"durationSeconds":2,"frameRate":15,"codec":"h264","byteSize":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","caption":"c","author":{"id":"a","name":"A"},"createdAt":"2026-01-01T00:00:00Z","camera":"c","likeCount":0,"shareCount":0,"commentCount":0}"#.utf8))
            metadata.rename(to: id, url: store.url(forKey: PostMetadata.videoKey(id: id)))
            metadata.caption = "post \(i)"
            metadata.createdAt = RFC3339.string(now.addingTimeInterval(-Double(i)))
            try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
            try PostFeed(store: store).index(metadata)
        }
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/feed", method: .get) { response in
                let page = object(response)
                let posts = try #require(page["posts"] as? [[String: Any]])
                #expect(posts.compactMap { $0["id"] as? String } == Array(ids[0..<12]))
                #expect(page["hasMore"] as? Bool == true)
            }
            try await client.execute(uri: "/api/feed?page=2", method: .get) { response in
                let page = object(response)
                #expect((page["posts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[12]])
                #expect(page["hasMore"] as? Bool == false)
            }
            try await client.execute(uri: "/api/feed?page=zero", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            // No video in the store for this post: a clear 404, not found (the CLI's 66).
            try await client.execute(uri: "/api/videos/\(ids[0]).mp4", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(object(response)["kind"] as? String == "notFound")
            }
            try await client.execute(uri: "/api/videos/..%2Fetc%2Fpasswd", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func badRequestsAreClearAndChangeNothing() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            func expect(_ uri: String, _ text: String, headers: HTTPFields = jsonHeaders, status: HTTPResponse.Status,
                        mentions: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                try await client.execute(uri: uri, method: .post, headers: headers, body: body(text)) { response in
                    #expect(response.status == status, sourceLocation: sourceLocation)
                    let error = (object(response)["error"] as? String) ?? ""
                    #expect(error.contains(mentions), "\(error)", sourceLocation: sourceLocation)
                }
            }
            try await expect("/api/shoot", #"{"seconds": 5, "colour": "red"}"#, status: .badRequest, mentions: "unknown field colour")
            try await expect("/api/shoot", #"{"seconds": "5"}"#, status: .badRequest, mentions: "seconds")
            try await expect("/api/shoot", #"{"seconds": 0}"#, status: .badRequest, mentions: "from 1 to 600")
            try await expect("/api/shoot", #"{"seconds": 100000}"#, status: .badRequest, mentions: "from 1 to 600")
            try await expect("/api/shoot", #"{"countdown": 99}"#, status: .badRequest, mentions: "countdown")
            try await expect("/api/shoot", #"[1, 2]"#, status: .badRequest, mentions: "not a JSON object")
            try await expect("/api/shoot", #"{"seconds": 5"#, status: .badRequest, mentions: "not a JSON object")
            try await expect("/api/shoot", "seconds=5", headers: [.contentType: "application/x-www-form-urlencoded"],
                             status: .unsupportedMediaType, mentions: "application/json")
            try await expect("/api/shoot", String(repeating: " ", count: 70_000), status: .contentTooLarge, mentions: "larger than")
            try await expect("/api/post", #"{}"#, status: .badRequest, mentions: "id is required")
            try await expect("/api/post", #"{"caption": "hi"}"#, status: .badRequest, mentions: "id is required")
            try await expect("/api/post", #"{"id": "x"}"#, status: .badRequest, mentions: "caption is required")
            try await expect("/api/post", #"{"id": "x", "caption": 5}"#, status: .badRequest, mentions: "caption")
            let long = String(repeating: "é", count: Caption.maximumLength + 1)
            try await expect("/api/post", #"{"id": "x", "caption": "\#(long)"}"#, status: .badRequest, mentions: "2200")
            try await expect("/api/post", #"{"id": "x", "caption": "bell\u0007"}"#, status: .badRequest, mentions: "control")
            // Valid, but there is no shot to post yet.
            try await expect("/api/post", #"{"id": "x", "caption": "hi"}"#, status: .conflict, mentions: "not the current shot")
            try await expect("/api/stop", #"{"now": true}"#, status: .badRequest, mentions: "takes no fields")
            // Nothing recorded, nothing queued, still idle and healthy.
            #expect(await fixture.kiosk.manager.recordState == .idle)
            #expect(fixture.kiosk.drain.outbox.items().isEmpty)
            fixture.kiosk.health.beat()
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func tokenAndOriginGuardTheAPI() async throws {
        let token = "t0ken-for-the-tests-0123456789"
        let fixture = try KioskFixture(token: token)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                #expect(object(response)["kind"] as? String == "unauthorized")
            }
            try await client.execute(uri: "/api/status", method: .get, headers: [.authorization: "Bearer wrong-token-0123456789"]) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/status", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
            }
            // A browser logs in once; the server sets the cookie (HttpOnly, SameSite=Strict), which is
            // not the token.
            var cookie = ""
            try await client.execute(uri: "/login", method: .post, headers: jsonHeaders, body: body(#"{"token": "\#(token)"}"#)) { response in
                #expect(response.status == .ok)
                #expect(object(response)["role"] as? String == "operator")
                let set = try #require(SetCookie.only(in: response.headers), "\(response.headers)")
                #expect(set.httpOnly && set.sameSite == "Strict" && set.path == "/", "\(set)")
                // A leak may be anywhere in the header: searched as text.
                #expect(set.name == "recorder_operator" && !set.header.contains(token), "\(set)")
                cookie = set.pair
            }
            try await client.execute(uri: "/api/status", method: .get, headers: [.cookie: "a=b; \(cookie)"]) {
                #expect($0.status == .ok)
            }
            // The old way (the token itself in a cookie the page wrote) is no credential.
            try await client.execute(uri: "/api/status", method: .get, headers: [.cookie: "recorder_token=\(token)"]) {
                #expect($0.status == .unauthorized)
            }
            // The page and the health check stay open (the page asks for the token; systemd and probes need health).
            try await client.execute(uri: "/", method: .get) { #expect($0.status == .ok) }
            fixture.kiosk.health.beat()
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            // Another site's page cannot drive the kiosk, even with the cookie the browser would attach.
            var crossSite: HTTPFields = [.contentType: "application/json", .cookie: cookie, .origin: "http://evil.example"]
            try await client.execute(uri: "/api/stop", method: .post, headers: crossSite, body: body("{}")) { response in
                #expect(response.status == .forbidden)
                #expect(object(response)["kind"] as? String == "denied")
            }
            crossSite[.origin] = nil
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            try await client.execute(uri: "/api/shoot", method: .post, headers: crossSite, body: body("{}")) { #expect($0.status == .forbidden) }
            // With the cookie, a POST must say where it comes from; with the bearer token it need not.
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = nil
            try await client.execute(uri: "/api/stop", method: .post, headers: crossSite, body: body("{}")) { response in
                #expect(response.status == .forbidden)
                #expect(object(response)["kind"] as? String == "denied")
            }
            try await client.execute(uri: "/api/stop", method: .post, headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
                                     body: body("{}")) { #expect($0.status == .ok) }
            #expect(await fixture.kiosk.manager.recordState == .idle)
        }
    }

    @Test func previewIsAJPEGOfTheCamera() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let jpeg = try await client.execute(uri: "/api/preview.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                return Array(response.body.readableBytesView)
            }
            #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9])
            // An independent reader agrees: a 640x360 picture (the preview's size for the 16:9 pattern).
            let path = fixture.directory + "/preview.jpg"
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
            probe.arguments = ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path]
            let pipe = Pipe()
            probe.standardOutput = pipe
            try probe.run()
            probe.waitUntilExit()
            let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(line.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,640,360")
            #expect(await fixture.kiosk.manager.previewRunning)
            // Nobody looking: the camera is closed again.
            await fixture.kiosk.manager.expirePreview(idleSeconds: 0)
            #expect(!(await fixture.kiosk.manager.previewRunning))
        }
    }

    @Test func drainBacksOffWhileTheStoreFailsThenSendsWhenItIsBack() async throws {
        let fixture = try KioskFixture(seconds: 1)
        defer { fixture.remove() }
        await fixture.start()
        _ = try await fixture.kiosk.manager.shoot(fixture.kiosk.settings.shotRequest())
        let item = try await fixture.kiosk.posting.post(caption: "later")
        // Then the store's directory cannot be made: a file is in its way (a real failure, not a
        // fake). (Before the post, the post itself is refused: nothing is queued for a store that
        // cannot take it.)
        let store = fixture.directory + "/store"
        try? FileManager.default.removeItem(atPath: store)
        FileManager.default.createFile(atPath: store, contents: Data("in the way".utf8))
        let drain = fixture.kiosk.drain
        drain.start()
        defer { drain.stop() }
        let end = ContinuousClock.now + .seconds(30)
        while drain.status.failedAttempts < 2 && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(50)) }
        let failing = drain.status
        #expect(failing.failedAttempts >= 2, "the drain retries by itself")
        #expect(failing.queued == [item.metadata.id])
        #expect(failing.lastFailure != nil)
        #expect(failing.retryInSeconds != nil)
        #expect(fixture.kiosk.drain.outbox.items().count == 1, "nothing leaves the queue while the store fails")
        // The store is back: the next attempt (or a wake) sends it.
        try FileManager.default.removeItem(atPath: store)
        drain.wake()
        while drain.status.uploadedCount < 1 && ContinuousClock.now < end + .seconds(30) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(drain.status.lastUploaded?.id == item.metadata.id)
        #expect(drain.status.lastFailure == nil && drain.status.queued.isEmpty)
        #expect(FileManager.default.fileExists(atPath: "\(store)/videos/\(item.metadata.id).mp4"))
        let metrics = metricValues(fixture.kiosk.metrics.text())
        #expect(metrics["recorder_posts_uploaded_total"] == 1)
        #expect((metrics["recorder_upload_failures_total"] ?? 0) > 0, "\(metrics)")
        #expect((metrics["recorder_upload_retries_total"] ?? 0) > 0, "\(metrics)")
    }

    @Test func stopDuringCountdownCallsTheShotOff() async throws {
        let fixture = try KioskFixture(seconds: 5, countdown: 3)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await client.execute(uri: "/api/stop", method: .post) { response in
                #expect(response.status == .ok)
                #expect(object(response)["stopped"] as? Bool == true)
            }
            await fixture.kiosk.manager.waitForShot()
            #expect(await fixture.kiosk.manager.recordState == .idle)
            #expect(fixture.kiosk.manager.workspace.currentShot() == nil)
        }
    }

    @Test func eventsStreamStateChanges() async throws {
        let fixture = try KioskFixture(seconds: 1, countdown: 0)
        defer { fixture.remove() }
        await fixture.start()
        let stream = fixture.kiosk.events.hub.subscribe().stream
        let seen = Mutex<[String]>([])
        let reader = Task {
            for await chunk in stream {
                let text = String(buffer: chunk)
                seen.withLock { $0.append(text) }
                if ServerSentEvent.parse(text).contains(where: { $0.name == "shot" }) { return }
            }
        }
        try await fixture.kiosk.manager.begin(fixture.kiosk.settings.shotRequest(), countdown: 0)
        try await fixture.waitFor("idle")
        let end = ContinuousClock.now + .seconds(10)
        while !reader.isCancelled, seen.withLock({ chunks in !ServerSentEvent.parse(chunks.joined()).contains { $0.name == "shot" } }), ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(50))
        }
        reader.cancel()
        let text = seen.withLock { $0.joined() }
        #expect(text.hasPrefix(": recorder events"))
        // Each event is an id, a name and one line of JSON, followed by a blank line.
        let blocks = text.components(separatedBy: "\n\n").filter { $0.hasPrefix("id:") }
        #expect(blocks.count >= 3)
        for block in blocks {
            let lines = block.split(separator: "\n")
            #expect(lines.count == 3 && lines[1].hasPrefix("event: ") && lines[2].hasPrefix("data: "), "\(block)")
        }
        let events = ServerSentEvent.parse(text)
        #expect(events.count == blocks.count && events.allSatisfy { $0.id != nil && $0.json != nil }, "\(text)")
        #expect(events.contains { $0.name == "state" && $0.json?["state"] as? String == "recording" }, "\(text)")
        #expect(events.contains { $0.name == "shot" }, "\(text)")
    }

    /// A new `/api/events` client gets the current status as its first event, and no other
    /// client gets it again (each new one used to make every client receive the status anew, a
    /// fan-out a crowd of page loads multiplies); at most as many clients as `KioskLimits.events`
    /// has places for this one (the operator's own, then an address's share), then 429.
    @Test func eventsFirstStatusGoesToTheNewClientAloneAndClientsAreCapped() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        let hub = fixture.kiosk.events.hub
        // Ends every stream (and so the reads below) if the events never come.
        let watchdog = hub.finishing(after: .seconds(60))
        defer { watchdog.cancel() }
        try await fixture.application().test(.router) { client in
            var streams: [EventReader] = []
            let places = fixture.kiosk.limits.events.operator + fixture.kiosk.limits.events.perClient
            for _ in 0..<places {
                let (status, reader) = try await EventReader.open(client.responder)
                #expect(status == .ok)
                streams.append(reader)
            }
            // Each has its first status, and it is the first event.
            for index in streams.indices {
                #expect(await streams[index].next() == "status")
            }
            let (refused, _) = try await EventReader.open(client.responder)
            #expect(refused == .tooManyRequests)
            // The first client's next event is the next change, not another client's first status.
            hub.publish("marker", value: ["n": 1])
            #expect(await streams[0].next() == "marker")
            #expect(await streams[places - 1].next() == "marker")
            hub.finishAll()
        }
    }

    @Test func eventsReachClientsInTheOrderTheyHappened() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        let stream = fixture.kiosk.events.hub.subscribe().stream
        let kinds = (0..<30).map { "change\($0)" }
        for kind in kinds { fixture.kiosk.events.announce(kind) }
        var seen: [(id: Int, kind: String)] = []
        // Ends the stream (and so the loop) if the events never all come.
        let watchdog = fixture.kiosk.events.hub.finishing(after: .seconds(30))
        defer { watchdog.cancel() }
        for await chunk in stream {
            for block in String(buffer: chunk).components(separatedBy: "\n\n") where block.hasPrefix("id:") {
                let lines = block.split(separator: "\n")
                seen.append((Int(lines[0].dropFirst(4)) ?? -1, String(lines[1].dropFirst(7))))
            }
            if seen.count >= kinds.count { break }
        }
        #expect(seen.map(\.kind) == kinds)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.id + 1 == $1.id }, "\(seen.map(\.id))")
    }
}

extension EventHub {
    /// Ends every stream after `duration` (cancel it once the test's reads are done): a test that
    /// waits for events never waits for ever.
    func finishing(after duration: Duration) -> Task<Void, any Error> {
        Task {
            try await Task.sleep(for: duration)
            finishAll()
        }
    }
}

/// One `/api/events` answer read as it is written, event by event.
struct EventReader {
    private var iterator: AsyncStream<ByteBuffer>.AsyncIterator
    private var text = ""

    /// Sends `GET /api/events` to `responder` (as the router test client does, its body written as
    /// it comes), with `headers`, from `address` (none: an unknown client).
    static func open<Responder: HTTPResponder>(_ responder: Responder, headers: HTTPFields = [:], from address: SocketAddress? = nil) async throws
        -> (HTTPResponse.Status, EventReader) where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/api/events", headerFields: headers),
                              body: RequestBody(buffer: ByteBuffer()))
        let channel = NIOAsyncTestingChannel()
        channel.remoteAddress = address
        let context = Responder.Context(source: ApplicationRequestContextSource(channel: channel, logger: Logger(label: "test")))
        let response = try await responder.respond(to: request, context: context)
        let (chunks, sink) = AsyncStream.makeStream(of: ByteBuffer.self)
        Task { try await response.body.write(VideoResponderTests.Viewer(sink: sink)) }
        return (response.status, EventReader(iterator: chunks.makeAsyncIterator()))
    }

    /// The next event's name (nil when the stream ended first); comment lines are skipped.
    mutating func next() async -> String? {
        await nextEvent()?.name
    }

    /// The next event's name and its `data` line (nil when the stream ended first).
    mutating func nextEvent() async -> (name: String, data: String)? {
        while true {
            if let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text = String(text[end.upperBound...])
                let lines = block.split(separator: "\n")
                if let line = lines.first(where: { $0.hasPrefix("event: ") }) {
                    return (String(line.dropFirst(7)), lines.first(where: { $0.hasPrefix("data: ") }).map { String($0.dropFirst(6)) } ?? "")
                }
                continue
            }
            guard let chunk = await iterator.next() else { return nil }
            text += String(buffer: chunk)
        }
    }
}
