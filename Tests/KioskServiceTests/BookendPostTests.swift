import Foundation
import Testing
@testable import KioskService
import Settings
@testable import Publishing
@testable import Shooting
@testable import KioskWords
@testable import KioskState
import Failures

/// The kiosk's posts carry the configured outro (`post.outro`) too, read back by ffprobe and ffmpeg.
@Suite struct BookendPostTests {
    @Test func aMissingIntroStopsTheKioskAtItsStart() throws {
        let missing = NSTemporaryDirectory() + "recorder-no-such-intro-\(UUID().uuidString).png"
        let error = #expect(throws: RecorderError.self) {
            _ = try KioskFixture(seconds: 1, more: ["post.intro": missing])
        }
        #expect(error?.kind == .notFound && error == BookendFailure.missing(.intro, path: missing), "\(String(describing: error))")
    }

    @Test func aGuestsPostEndsWithTheConfiguredOutro() async throws {
        let directory = NSTemporaryDirectory() + "recorder-outro-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outro = directory + "/thanks.png"
        _ = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=640x360", "-frames:v", "1", outro])
        let fixture = try KioskFixture(seconds: 1, more: ["shoot.size": "320x240", "post.outro": outro, "post.still_seconds": "1.5"])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.kiosk.manager.begin(fixture.kiosk.settings.shotRequest(), countdown: 0)
        await fixture.kiosk.manager.waitForShot()
        let item = try await fixture.kiosk.posting.post(caption: "with the booth's thanks")
        try await fixture.waitForUpload(item.metadata.id)
        let video = "\(fixture.directory)/store/videos/\(item.metadata.id).mp4"
        let streams = try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", video])
        let seconds = streams.split(separator: "\n").compactMap { line -> Double? in Double(line.split(separator: ",").last ?? "") }
        #expect(seconds.count == 2 && seconds.allSatisfy { abs($0 - 2.5) < 0.05 }, "the 1 s shot and the 1.5 s outro: \(streams)")
        #expect(abs(item.metadata.durationSeconds - 2.5) < 0.05)
        // Its last picture is the outro's blue, scaled into the shot's 320x240.
        let picture = directory + "/last.rgb"
        _ = try runTool("ffmpeg", ["-v", "error", "-y", "-sseof", "-0.2", "-i", video, "-frames:v", "1", "-vf", "scale=1:1", "-f", "rawvideo", "-pix_fmt", "rgb24", picture])
        let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: picture)))
        #expect(rgb.count == 3 && rgb[2] > 100 && rgb[0] < 40, "the last picture is \(rgb), not the outro's blue (with the pad's black bars)")
    }
}
