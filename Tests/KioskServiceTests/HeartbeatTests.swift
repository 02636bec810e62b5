import Foundation
import HTTPTypes
import Hummingbird
import Testing
@testable import KioskService
import KioskState
import Fleet
import FleetValues
import StorageUpload
import SystemSupport
import Shooting

/// Issue 54: each kiosk's heartbeat in the store, written at the start and at every
/// `fleet.heartbeat_seconds` on the kiosk's clock; a booth whose heartbeat cannot reach the store
/// keeps the failure and says so on its own fleet page and `/metrics`; the fleet page lists every
/// booth of the store, the silent ones offline; the camera's absence and frames are counted.
@Suite(.serialized) struct HeartbeatTests {
    /// The object at `path`, read by Foundation's own parser.
    static func stored(_ path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func fleet(_ client: RouterTestClient<some HTTPResponder>, headers: HTTPFields = [:]) async throws -> [String: Any] {
        try await client.execute(uri: "/api/fleet", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return object(response)
        }
    }

    @Test func theKioskWritesItsHeartbeatAtTheStartAndAfterEachInterval() async throws {
        let fixture = try KioskFixture(more: ["fleet.heartbeat_seconds": "30", "kiosk.id": "booth-a", "author_name": "Booth A"])
        defer { fixture.remove() }
        await fixture.start()
        let path = fixture.directory + "/store/fleet/booth-a.json"
        let service = Task { try await fixture.kiosk.heartbeats.run() }
        defer { service.cancel() }
        try await fixture.until("no heartbeat at the start") { Self.stored(path) != nil }
        let first = try #require(Self.stored(path))
        #expect(first["kiosk"] as? String == "booth-a" && first["name"] as? String == "Booth A")
        #expect(first["intervalSeconds"] as? Int == 30 && first["state"] as? String == "idle" && first["format"] as? Int == 1)
        #expect((first["camera"] as? [String: Any])?["present"] as? Bool == true)
        #expect(first["at"] as? String == RFC3339.string(fixture.clock.date))
        // What it holds, and nothing else: no post, caption, address or share token of a guest's.
        #expect(Set(first.keys) == ["format", "kiosk", "name", "version", "run", "at", "startedAt", "intervalSeconds", "state", "outOfService",
                                    "camera", "microphone", "disk", "outbox", "clock"], "\(first.keys.sorted())")
        #expect(await fixture.clock.waitForSleepers(1), "the heartbeat does not sleep on the kiosk's clock")
        fixture.clock.advance(by: .seconds(30))
        let next = RFC3339.string(fixture.clock.date)
        try await fixture.until("no heartbeat after the interval") { Self.stored(path)?["at"] as? String == next }
    }

    /// The local store's directory made a file (a disk not mounted, say): the heartbeat fails, the
    /// booth keeps why and since when, its `/metrics` counts the silence and its own fleet page says
    /// so; with the store back, the next heartbeat gets through and all of that clears.
    @Test func aBoothWhoseHeartbeatCannotReachTheStoreSaysSoItself() async throws {
        let fixture = try KioskFixture(more: ["fleet.heartbeat_seconds": "30", "kiosk.id": "booth-b"])
        defer { fixture.remove() }
        await fixture.start()
        let store = fixture.directory + "/store"
        try? FileManager.default.removeItem(atPath: store)
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: store))
        await fixture.kiosk.heartbeats.beat()
        #expect(fixture.kiosk.history.now.heartbeatFailure != nil)
        fixture.clock.advance(by: .seconds(200))
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let values = metricValues(String(buffer: response.body))
                #expect(values["recorder_heartbeat_age_seconds"] == 200)
                #expect(values["recorder_heartbeat_interval_seconds"] == 30)
            }
            let fleet = try await Self.fleet(client)
            #expect(fleet["storeError"] is String, "\(fleet)")
            let booths = try #require(fleet["booths"] as? [[String: Any]])
            #expect(booths.count == 1 && booths.first?["kiosk"] as? String == "booth-b" && booths.first?["online"] as? Bool == true)
            let problem = try #require((booths.first?["problems"] as? [[String: Any]])?.first)
            #expect(problem["problem"] as? String == "heartbeat-not-written" && problem["seconds"] as? Int == 200, "\(problem)")
            #expect(problem["lastError"] is String && problem["fix"] is String)

            try FileManager.default.removeItem(atPath: store)
            await fixture.kiosk.heartbeats.beat()
            #expect(fixture.kiosk.history.now.heartbeatFailure == nil)
            #expect(Self.stored(store + "/fleet/booth-b.json")?["kiosk"] as? String == "booth-b")
            fixture.clock.advance(by: .seconds(10))
            let again = try await Self.fleet(client)
            #expect(again["storeError"] is NSNull, "\(again)")
            #expect(((again["booths"] as? [[String: Any]])?.first?["problems"] as? [Any])?.isEmpty == true, "\(again)")
        }
    }

    /// Every booth of the store, this one first (live), then the newest heartbeat first; one whose
    /// heartbeat is over three of its intervals old is offline. Only the operator may read it.
    @Test func theFleetPageListsEveryBoothAndTheSilentOnesOffline() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token, boothToken: AccessTests.boothToken,
                                       more: ["fleet.heartbeat_seconds": "30", "kiosk.id": "booth-c"])
        defer { fixture.remove() }
        await fixture.start()
        let store = fixture.directory + "/store"
        let heartbeats = HeartbeatStore(store: LocalDirectoryBackend(root: store, createsRoot: true))
        for (kiosk, secondsAgo) in [("booth-old", 400.0), ("booth-new", 10.0)] {
            var beat = try #require(Self.sample(kiosk))
            beat.intervalSeconds = 60
            try heartbeats.write(beat)
            // (the store's own time for the object is what the age is judged by)
            try FileManager.default.setAttributes([.modificationDate: fixture.clock.date.addingTimeInterval(-secondsAgo)],
                                                  ofItemAtPath: store + "/fleet/\(kiosk).json")
        }
        let operatorHeaders: HTTPFields = [.authorization: "Bearer \(AdminAPITests.token)"]
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/fleet", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/fleet", method: .get, headers: [.authorization: "Bearer \(AccessTests.boothToken)"]) {
                #expect($0.status == .forbidden)
            }
            let fleet = try await Self.fleet(client, headers: operatorHeaders)
            let booths = try #require(fleet["booths"] as? [[String: Any]])
            #expect(booths.map { $0["kiosk"] as? String } == ["booth-c", "booth-new", "booth-old"])
            #expect(booths.map { $0["online"] as? Bool } == [true, true, false])
            #expect(fleet["online"] as? Int == 2 && fleet["offline"] as? Int == 1)
            let offline = try #require((booths[2]["problems"] as? [[String: Any]])?.first)
            #expect(offline["problem"] as? String == "offline" && offline["seconds"] as? Int == 400)
            try await client.execute(uri: "/fleet", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
            }
            try await client.execute(uri: "/fleet/fleet.js", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/fleet/fleet-logic.js", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/fleet/secrets.txt", method: .get) { #expect($0.status == .notFound) }
            // The route table lists the fleet's routes with who may call them.
            try await client.execute(uri: "/api/admin/routes", method: .get, headers: operatorHeaders) { response in
                let routes = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                #expect(routes.contains { $0["path"] as? String == "/api/fleet" && $0["access"] as? String == "operator" }, "\(routes)")
            }
        }
    }

    /// The camera gone (a Y4M file moved away) is counted in the heartbeat and `/metrics` from when
    /// the kiosk's own probe found it, by the kiosk's clock; a shot's frames are counted as the
    /// camera delivered them, with its rate and the encoder.
    @Test func theCameraIsCountedInTheHeartbeat() async throws {
        let directory = NSTemporaryDirectory() + "recorder-beat-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let camera = directory + "/camera.y4m"
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: fixtures.path + "/Fixtures/y4m/clip-420.y4m", toPath: camera)
        let fixture = try KioskFixture(seconds: 1, more: ["kiosk.device": "y4m:\(camera)", "kiosk.id": "booth-d"])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            let shot = try #require(fixture.kiosk.manager.workspace.currentShot())
            let beat = await fixture.kiosk.heartbeats.snapshot()
            #expect(beat.camera.framesDelivered >= shot.frames && beat.camera.framesDropped == 0, "\(beat.camera)")
            #expect(beat.camera.nominalFPS == shot.frameRate && beat.camera.encoder == shot.encoder, "\(beat.camera)")

            let loop = await OutOfServiceTests.CameraLoop(fixture)
            try FileManager.default.moveItem(atPath: camera, toPath: camera + ".away")
            await loop.probe()
            fixture.clock.advance(by: .seconds(90))
            try await client.execute(uri: "/metrics", method: .get) { response in
                let values = metricValues(String(buffer: response.body))
                #expect(values["recorder_camera_up"] == 0 && values["recorder_in_service"] == 0)
                #expect((values["recorder_camera_missing_seconds"] ?? 0) >= 90, "\(values)")
            }
            #expect(FleetJudge.problems(await fixture.kiosk.heartbeats.snapshot()).first.map { if case .cameraMissing = $0 { true } else { false } } == true)
            try FileManager.default.moveItem(atPath: camera + ".away", toPath: camera)
            await loop.probe()
            let back = await fixture.kiosk.heartbeats.snapshot()
            #expect(back.camera.present && back.camera.missingSeconds == 0)
            await loop.stop()
        }
    }

    /// A heartbeat of another booth, as its kiosk would write it.
    static func sample(_ kiosk: String) -> Heartbeat? {
        let json = """
        {"format": 1, "kiosk": "\(kiosk)", "name": "\(kiosk)", "version": "0.5.0", "run": "r", "at": "2026-11-29T10:00:00Z",
         "startedAt": "2026-11-29T09:00:00Z", "intervalSeconds": 60, "state": "idle", "outOfService": [],
         "camera": {"device": "/dev/video0", "present": true, "missingSeconds": 0, "streamingSeconds": 0, "framesDelivered": 0, "framesDropped": 0},
         "microphone": {"choice": "auto"}, "disk": {"freeBytes": 10000000000, "hoursLeft": 5.5, "low": false},
         "outbox": {"depth": 0, "storeFailing": false}, "clock": {"synchronised": true}}
        """
        return try? JSONDecoder().decode(Heartbeat.self, from: Data(json.utf8))
    }
}
