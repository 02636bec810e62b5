import Foundation
import Testing
import Fleet
import FleetValues
import StorageUpload

/// The booths' heartbeats in a store (the local directory here; the S3 store in the fleet's
/// browser test): one object per booth, overwritten, read back whole, and an object that is not
/// a heartbeat of this format kept in the list as unreadable.
@Suite struct HeartbeatStoreTests {
    @Test func eachBoothHasOneObjectOverwrittenAndReadBack() throws {
        let root = NSTemporaryDirectory() + "recorder-fleet-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = HeartbeatStore(store: LocalDirectoryBackend(root: root, createsRoot: true))
        try store.write(HeartbeatSamples.well("booth-a"))
        var later = HeartbeatSamples.well("booth-a", at: "2026-11-29T10:01:00Z")
        later.outbox.depth = 4
        try store.write(later)
        try store.write(HeartbeatSamples.well("booth-b"))
        // Read with Foundation's own parser, not the Codable that wrote it.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/fleet/booth-a.json"))) as? [String: Any]
        #expect(object?["at"] as? String == "2026-11-29T10:01:00Z")
        #expect((object?["outbox"] as? [String: Any])?["depth"] as? Int == 4)
        #expect(object?["format"] as? Int == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/fleet").sorted() == ["booth-a.json", "booth-b.json"])

        try Data("{\"format\": 2, \"kiosk\": \"booth-c\"}".utf8).write(to: URL(fileURLWithPath: root + "/fleet/booth-c.json"))
        try Data("not json".utf8).write(to: URL(fileURLWithPath: root + "/fleet/booth-d.json"))
        try FileManager.default.createDirectory(atPath: root + "/fleet/archive", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/fleet/archive/old.json"))
        let found = try store.readAll().sorted { $0.kiosk < $1.kiosk }
        #expect(found.map(\.kiosk) == ["booth-a", "booth-b", "booth-c", "booth-d"])
        #expect(found[0].heartbeat == later && found[1].heartbeat == HeartbeatSamples.well("booth-b"))
        #expect(found[2].heartbeat == nil && found[2].format == 2)
        #expect(found[3].heartbeat == nil && found[3].format == nil)
        #expect(found.allSatisfy { $0.storedAt != nil }, "the local store gives each object's time")
    }

    @Test func aStoreThatCannotBeReadSaysSo() throws {
        let store = HeartbeatStore(store: LocalDirectoryBackend(root: "/nonexistent/recorder-fleet", createsRoot: false))
        #expect(throws: (any Error).self) { try store.readAll() }
        #expect(throws: (any Error).self) { try store.write(HeartbeatSamples.well()) }
    }
}
