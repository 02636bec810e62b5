import Foundation
@testable import RecorderCLI
@testable import Shooting
import ShotValues
import Testing
import Failures
import MediaValues

/// A shot's notes in shot.json: each case kept as its case and data and read back the same; a
/// shot.json an older version wrote, its notes sentences, still loads with them as they were.
@Suite struct ShotNoteFileTests {
    static func workspace() throws -> ShotWorkspace {
        let ws = ShotWorkspace(root: NSTemporaryDirectory() + "recorder-notes-\(UUID().uuidString)")
        try ws.prepare()
        return ws
    }

    static func shot(_ draft: ShotDraft, notes: [ShotNote]) -> Shot {
        _ = FileManager.default.createFile(atPath: draft.videoPath, contents: Data("video".utf8))
        return Shot(id: draft.id, videoPath: draft.videoPath, createdAt: Date(timeIntervalSince1970: 1_764_400_000), source: "testsrc",
                    inputFormat: "yuv420p", width: 1280, height: 720, frameRate: 30, frames: 90, framesDropped: 0, durationSeconds: 3,
                    byteSize: 5, codec: "h264", encoder: "libx264", endedEarly: nil, notes: notes)
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Every note case (each kind of failure inside one too) through shot.json and back, equal;
    /// in the file (read by Foundation's own parser) each is an object named by its case, and a
    /// note an older version wrote is its sentence.
    @Test func everyNoteRoundTripsThroughShotJSON() throws {
        let ws = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: ws.root) }
        let notes = ShotNoteSamples.all.map(\.1)
        let draft = try ws.beginShot()
        _ = try ws.commit(draft, shot: Self.shot(draft, notes: notes))
        #expect(ws.currentShot()?.notes == notes)
        let stored = try #require(try Self.json("\(ws.root)/current/shot.json")["notes"] as? [Any])
        #expect(stored.count == notes.count)
        for ((name, note), value) in zip(ShotNoteSamples.all, stored) {
            if case .written(let text) = note {
                #expect(value as? String == text, "\(name)")
            } else {
                let object = value as? [String: Any]
                #expect(object?.keys.first == ShotNoteSamples.caseName(note) && object?.count == 1, "\(name): \(value)")
            }
        }
    }

    /// A shot.json as the versions before wrote it: notes as sentences, an effect and a levelling
    /// that failed as a call and its words. It loads; the sentences are shown as they were, the
    /// failures' words too; written back, the notes stay sentences.
    /// A shot whose shot.json is damaged or gone is said as such, by case and path, not as "no shot".
    @Test func aShotFileThatCannotBeReadIsSaidByItsProblem() throws {
        let ws = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: ws.root) }
        let draft = try ws.beginShot()
        _ = try ws.commit(draft, shot: Self.shot(draft, notes: []))
        let path = "\(ws.root)/current/shot.json"
        #expect(ws.problem(readingShot: draft.id) == nil)
        try Data("{\"id\": ".utf8).write(to: URL(fileURLWithPath: path))
        guard case .damaged(path: let damaged, parser: let parser)? = ws.problem(readingShot: draft.id) else {
            Issue.record("\(String(describing: ws.problem(readingShot: draft.id)))")
            return
        }
        #expect(damaged.hasSuffix("/\(draft.id)/shot.json") && !parser.isEmpty, "\(damaged)")
        try FileManager.default.removeItem(atPath: path)
        #expect(ws.problem(readingShot: draft.id) == .unreadable(path: damaged))
    }

    @Test func anOldShotJSONWithSentencesStillLoads() throws {
        let ws = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: ws.root) }
        let draft = try ws.beginShot()
        _ = try ws.commit(draft, shot: Self.shot(draft, notes: []))
        let path = "\(ws.root)/current/shot.json"
        var old = try Self.json(path)
        let sentences = ["no sound: /dev/video0 has no microphone of its own (audio.device picks another)",
                         "recovered an interrupted recording (3.0 s, 90 frames) as the current shot"]
        old["notes"] = sentences
        old["effect"] = ["name": "boomerang", "notRendered": ["failed": ["operation": "avcodec_send_frame", "detail": "Invalid argument"]]]
        old["audio"] = ["codec": "aac", "sampleRate": 48000, "channels": 1, "bitRate": 128000, "source": "test beep", "seconds": 3.0, "overruns": 0,
                        "endedEarly": "the microphone was disconnected (ENODEV)", "endedAtSeconds": 2.1,
                        "loudness": ["targetLUFS": -16.0, "left": ["failed": ["operation": "avfilter_graph_config", "detail": "Invalid argument"]]]]
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path))

        let shot = try #require(ws.currentShot(), "\(String(describing: ws.problem(readingShot: draft.id)))")
        #expect(shot.notes == sentences.map(ShotNote.written))
        #expect(shot.notes.map(CLIWords.note) == sentences)
        #expect(shot.effect?.notRendered == .failed(operation: "avcodec_send_frame", detail: "Invalid argument"))
        #expect(shot.audio?.loudness?.left == .failed(operation: "avfilter_graph_config", detail: "Invalid argument"))
        #expect(shot.audio?.endedEarly == .written("the microphone was disconnected (ENODEV)"))

        // Kept as it is when written again (a salvage keeping it beside a new shot does).
        let encoder = JSONEncoder()
        let again = try #require(try JSONSerialization.jsonObject(with: encoder.encode(shot)) as? [String: Any])
        #expect(again["notes"] as? [String] == sentences)
    }
}
