import Foundation
import HTTPTypes
import Hummingbird
@testable import KioskService
@testable import Settings
@testable import Shooting
import Publishing
import SystemSupport
import Testing
@testable import KioskState

/// Issue 42 item 5: with the camera gone, the disk nearly full, or the store failing while posts
/// pile up, the booth is out of service - the API refuses a shot with its own kind, the button
/// starts nothing, the status says which cause and its numbers - and it comes back by itself when
/// the cause clears, found by the camera service's own loop on the kiosk's clock.
@Suite(.serialized) struct OutOfServiceTests {
    /// The camera service's loop on the fixture's clock: each `tick` a second moved, then waited for
    /// until the loop sleeps again (it probed the camera and checked the service by then).
    struct CameraLoop {
        let fixture: KioskFixture
        let task: Task<Void, any Error>

        init(_ fixture: KioskFixture) async {
            self.fixture = fixture
            let kiosk = fixture.kiosk
            task = Task {
                try await CameraService(manager: kiosk.manager, health: kiosk.health, preview: kiosk.preview, connections: kiosk.limits.connections,
                                        notifier: kiosk.notifier, logger: kiosk.logger, clock: kiosk.clock).run()
            }
            #expect(await fixture.clock.waitForSleepers(1), "the camera loop does not sleep on the clock")
        }

        /// Two turns of the loop: one with a camera probe and a service check.
        func probe() async {
            for _ in 0..<2 {
                let begun = fixture.clock.sleepsBegun
                fixture.clock.advance(by: .seconds(1))
                #expect(await fixture.clock.waitForSleep(after: begun))
            }
        }

        func stop() async {
            task.cancel()
            _ = await task.result
        }
    }

    static func service(_ client: RouterTestClient<some HTTPResponder>) async throws -> [[String: Any]]? {
        try await client.execute(uri: "/api/status", method: .get) { response in
            (object(response)["service"] as? [String: Any])?["causes"] as? [[String: Any]]
        }
    }

    /// A shoot refused as out of service: 503, its own kind, the guest's calm sentence.
    static func refusedShoot(_ client: RouterTestClient<some HTTPResponder>, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { response in
            #expect(response.status == .serviceUnavailable, sourceLocation: sourceLocation)
            let error = object(response)
            #expect(error["kind"] as? String == "outOfService", sourceLocation: sourceLocation)
            #expect(error["guestKey"] as? String == "backSoon", sourceLocation: sourceLocation)
        }
    }

    @Test func withTheCameraGoneTheBoothIsOutOfServiceUntilItIsBack() async throws {
        let directory = NSTemporaryDirectory() + "recorder-away-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A Y4M file stands in for the camera (the capture rig's pipe): moved away, it is unplugged.
        let camera = directory + "/camera.y4m"
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: fixtures.path + "/Fixtures/y4m/clip-420.y4m", toPath: camera)
        let fixture = try KioskFixture(seconds: 1, more: ["kiosk.device": "y4m:\(camera)"])
        defer { fixture.remove() }
        await fixture.start()
        let loop = await CameraLoop(fixture)
        try await fixture.application().test(.router) { client in
            #expect(try await Self.service(client) == nil, "in service with the camera there")
            try FileManager.default.moveItem(atPath: camera, toPath: camera + ".away")
            await loop.probe()
            let causes = try #require(try await Self.service(client))
            #expect(causes.count == 1 && causes[0]["cause"] as? String == "camera", "\(causes)")
            #expect((causes[0]["message"] as? String)?.contains(camera) == true, "\(causes)")
            try await Self.refusedShoot(client)
            // The button starts nothing (its press, as the button's service hands it on).
            await fixture.kiosk.guests.press()
            #expect(await fixture.kiosk.manager.recordState.name == "camera-missing")
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect((object(response)["reasons"] as? [String])?.first?.hasPrefix("camera missing: ") == true, "\(object(response))")
            }
            // Plugged in again: back by itself at the loop's next probe, and a shot records.
            try FileManager.default.moveItem(atPath: camera + ".away", toPath: camera)
            await loop.probe()
            #expect(try await Self.service(client) == nil)
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            #expect(fixture.kiosk.manager.workspace.currentShot() != nil)
        }
        await loop.stop()
    }

    @Test func withTheDiskNearlyFullTheBoothIsOutOfServiceUntilThereIsRoom() async throws {
        let directory = NSTemporaryDirectory() + "recorder-away-disk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The workspace on a 24 MiB disk of its own; one 1 s shot needs about 9 MiB there.
        guard let disk = try Self.mountTmpfs(directory + "/disk", size: "24m") else { return }
        defer { Self.unmount(disk) }
        let fixture = try KioskFixture(seconds: 1, more: ["workspace": disk + "/ws"])
        defer { fixture.remove() }
        await fixture.start()
        let loop = await CameraLoop(fixture)
        let needed = fixture.kiosk.settings.shotRequest().bytesNeeded
        try await fixture.application().test(.router) { client in
            #expect(try await Self.service(client) == nil)
            // Something else fills the disk, leaving less than a shot needs.
            let filler = disk + "/filler"
            let free = try #require(FileSystem.freeBytes(disk))
            try Data(count: Int(free - needed / 2)).write(to: URL(fileURLWithPath: filler))
            await loop.probe()
            let causes = try #require(try await Self.service(client))
            #expect(causes.count == 1 && causes[0]["cause"] as? String == "disk", "\(causes)")
            #expect(causes[0]["path"] as? String == disk + "/ws" && causes[0]["neededBytes"] as? Int64 == needed, "\(causes)")
            #expect((causes[0]["freeBytes"] as? Int64 ?? .max) < needed, "\(causes)")
            try await Self.refusedShoot(client)
            // The booth's button starts nothing either (its press, as the button's service hands it on).
            await fixture.kiosk.guests.press()
            #expect(await fixture.kiosk.manager.recordState == .idle)
            #expect(fixture.kiosk.manager.workspace.currentShot() == nil, "nothing was recorded")
            // Room again: back by itself.
            try FileManager.default.removeItem(atPath: filler)
            await loop.probe()
            #expect(try await Self.service(client) == nil)
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
        }
        await loop.stop()
    }

    @Test func withTheStoreFailingWhilePostsPileUpTheBoothIsOutOfServiceUntilTheyAreSent() async throws {
        // The guests' links open only from the store (a CDN's address): a post that cannot be sent
        // leaves its guest with a code that opens nothing.
        let fixture = try KioskFixture(seconds: 1, more: ["share.base_url": "https://cdn.example.test/{key}"])
        defer { fixture.remove() }
        await fixture.start()
        let loop = await CameraLoop(fixture)
        let store = fixture.directory + "/store"
        try await fixture.application().test(.router) { client in
            let shot = try await CrowdAccessTests.shoot(client, fixture, headers: jsonHeaders)
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(#"{"id": "\#(shot)", "caption": "later"}"#)) {
                #expect($0.status == .accepted)
            }
            // Then the store's directory cannot be made: a file is in its way (a real failure, not a
            // fake). (Before the post, the post itself is refused: nothing is queued for a store
            // that cannot take it.)
            try? FileManager.default.removeItem(atPath: store)
            FileManager.default.createFile(atPath: store, contents: Data("in the way".utf8))
            fixture.kiosk.drain.start()
            try await fixture.until("the upload did not fail") { fixture.kiosk.drain.status.lastFailure != nil }
            // A short outage is no reason: minutes of it are.
            await loop.probe()
            #expect(try await Self.service(client) == nil)
            // (the outbox stamps a post by the wall clock, which Publishing still reads: the test
            // clock, standing since the fixture was made, is behind it by the seconds the shot
            // and the post took, 5.7 s on CI's busy machine (ci3), so a minute more than patience)
            fixture.clock.advance(by: OutOfServiceCheck.storePatience + .seconds(60))
            await loop.probe()
            let causes = try #require(try await Self.service(client))
            #expect(causes.count == 1 && causes[0]["cause"] as? String == "store" && causes[0]["queued"] as? Int == 1, "\(causes)")
            #expect((causes[0]["waitingSeconds"] as? Int ?? 0) >= 300 && causes[0]["message"] is String, "\(causes)")
            try await Self.refusedShoot(client)
            // The store is back: the post goes up, and the booth is back.
            try FileManager.default.removeItem(atPath: store)
            fixture.kiosk.drain.wake()
            try await fixture.until("the post was not sent") { fixture.kiosk.drain.status.queued.isEmpty }
            await loop.probe()
            #expect(try await Self.service(client) == nil)
        }
        await loop.stop()
    }

    @Test func aStoreAwayCostsNothingWhereTheKioskServesItsGuestsLinks() async throws {
        // The default: links to this kiosk's own share page, which opens a queued post from the
        // outbox (docs/venue.md: no internet at the venue at all).
        let fixture = try KioskFixture(seconds: 1)
        defer { fixture.remove() }
        await fixture.start()
        let loop = await CameraLoop(fixture)
        try await fixture.application().test(.router) { client in
            let shot = try await CrowdAccessTests.shoot(client, fixture, headers: jsonHeaders)
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(#"{"id": "\#(shot)", "caption": "x"}"#)) {
                #expect($0.status == .accepted)
            }
            // The store away after the post (before it, the post is refused).
            try? FileManager.default.removeItem(atPath: fixture.directory + "/store")
            FileManager.default.createFile(atPath: fixture.directory + "/store", contents: Data("in the way".utf8))
            fixture.kiosk.drain.start()
            try await fixture.until("the upload did not fail") { fixture.kiosk.drain.status.lastFailure != nil }
            fixture.clock.advance(by: .seconds(3600))
            await loop.probe()
            #expect(try await Self.service(client) == nil)
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
        }
        await loop.stop()
    }

    /// A tmpfs of `size` at `path`, or nil (with a recorded issue) when this process may not mount.
    static func mountTmpfs(_ path: String, size: String) throws -> String? {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard getuid() == 0 else {
            Issue.record("this test mounts a small tmpfs and needs root; run the README's test command as root (CI does)")
            return nil
        }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -t tmpfs failed")
        return path
    }

    static func unmount(_ path: String) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = ["-l", path]
        try? umount.run()
        umount.waitUntilExit()
    }
}
