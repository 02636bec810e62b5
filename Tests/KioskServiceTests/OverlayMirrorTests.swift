import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
@testable import KioskService
@testable import Shooting
@testable import KioskState

/// `shoot.overlay` at the kiosk: the live mirror shows the frame the guest's video will have, and
/// the kiosk's shots carry it (both read back by ffmpeg, pixel by pixel).
@Suite struct OverlayMirrorTests {
    static func ffmpeg(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The RGB at (x, y) of the first picture of `file` (a JPEG or an MP4), as ffmpeg decodes it.
    static func pixel(_ file: String, _ x: Int, _ y: Int, width: Int) throws -> [Int] {
        let raw = file + ".rgb"
        #expect(try ffmpeg(["-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw]) == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let at = (y * width + x) * 3
        return at + 2 < bytes.count ? [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])] : []
    }

    static func red(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb[0] > 180 && rgb[1] < 70 && rgb[2] < 70 }

    static func orange(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb[0] > 190 && (80...170).contains(rgb[1]) && rgb[2] < 80 }
    static func white(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb.allSatisfy { $0 > 200 } }
    static func black(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb.allSatisfy { $0 < 50 } }
    static func blue(_ rgb: [Int]) -> Bool { rgb.count == 3 && rgb[0] < 70 && rgb[1] < 70 && rgb[2] > 180 }

    /// The guest's live mirror under a branding frame (issue 49: "Anna & Ben · 28.11.2026" read
    /// backwards on every screen with the camera): the frame reads as it will be recorded, on the
    /// same side, while the guest's own picture is still a mirror; the stream says the kiosk
    /// mirrored it (X-Mirrored), so the page shows it as it comes. The operator's one picture is
    /// the camera's, not mirrored, the frame on it. Read back by ffmpeg against the recording.
    @Test func theGuestsMirrorReadsTheFrameAsRecordedOverAMirroredPicture() async throws {
        let png = NSTemporaryDirectory() + "recorder-frame-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        // An orange strip down the left side only (a frame's text is never symmetric), clear
        // elsewhere: made by ffmpeg. The test pattern's bars run white (left) to black (right).
        #expect(try Self.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=320x180", "-frames:v", "1", "-vf",
                                 "format=rgba,geq=r='235':g='125':b='20':a='if(lt(X,40),255,0)'", png]) == 0)
        let fixture = try KioskFixture(seconds: 1, more: ["shoot.overlay": png, "shoot.size": "640x360"])
        defer { fixture.remove() }
        await fixture.start()
        let live = try #require(await fixture.kiosk.preview.nextJPEG(after: 0, wait: .seconds(10)))
        let mirror = fixture.directory + "/live.jpg"
        try Data(live.jpeg).write(to: URL(fileURLWithPath: mirror))
        let still = fixture.directory + "/still.jpg"
        try Data(try await fixture.kiosk.preview.jpeg()).write(to: URL(fileURLWithPath: still))
        _ = try await fixture.kiosk.manager.shoot(fixture.kiosk.settings.shotRequest())
        let video = try #require(fixture.kiosk.manager.workspace.currentShot()).videoPath
        // The frame: on the left in the recording, and on the left on the guest's screen.
        #expect(Self.orange(try Self.pixel(video, 20, 180, width: 640)), "the recording's frame")
        #expect(Self.orange(try Self.pixel(mirror, 20, 180, width: 640)), "the mirror's frame is where the recording has it")
        #expect(!Self.orange(try Self.pixel(mirror, 620, 180, width: 640)), "the mirror's frame is not turned round")
        // The camera: the bars white (under the frame) to blue and black in the recording, black
        // and blue on the left in the mirror, white on its right.
        #expect(Self.black(try Self.pixel(video, 600, 180, width: 640)), "the recording's black bar")
        #expect(Self.blue(try Self.pixel(video, 520, 180, width: 640)), "the recording's blue bar")
        #expect(Self.white(try Self.pixel(mirror, 620, 250, width: 640)), "the guest's picture is a mirror: the white bar on the right")
        #expect(Self.blue(try Self.pixel(mirror, 120, 180, width: 640)), "the guest's picture is a mirror: the blue bar on the left")
        // The operator's picture: the camera's way round, the frame on it.
        #expect(Self.orange(try Self.pixel(still, 20, 180, width: 640)), "the operator's picture has the frame")
        #expect(Self.black(try Self.pixel(still, 600, 180, width: 640)), "the operator's picture is the camera's way round")
    }

    @Test func theMirrorAndTheShotsCarryTheFrame() async throws {
        let png = NSTemporaryDirectory() + "recorder-frame-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        // A red border (an eighth of each side), clear inside: made by ffmpeg, not by us.
        #expect(try Self.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=320x180", "-frames:v", "1", "-vf",
                                 "format=rgba,geq=r='230':g='20':b='20':a='if(lt(X,40)+gt(X,279)+lt(Y,22)+gt(Y,157),255,0)'", png]) == 0)
        let fixture = try KioskFixture(seconds: 1, more: ["shoot.overlay": png, "shoot.size": "640x360"])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let jpeg = try await client.execute(uri: "/api/preview.jpg", method: .get) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            let mirror = fixture.directory + "/mirror.jpg"
            try jpeg.write(to: URL(fileURLWithPath: mirror))
            // The preview is 640x360: the border is red, the middle the camera's.
            #expect(Self.red(try Self.pixel(mirror, 20, 180, width: 640)), "the mirror's left border")
            #expect(Self.red(try Self.pixel(mirror, 320, 350, width: 640)), "the mirror's bottom border")
            #expect(!Self.red(try Self.pixel(mirror, 320, 180, width: 640)), "the mirror's middle is the camera's")
        }
        _ = try await fixture.kiosk.manager.shoot(fixture.kiosk.settings.shotRequest())
        let video = try #require(fixture.kiosk.manager.workspace.currentShot()).videoPath
        #expect(Self.red(try Self.pixel(video, 20, 180, width: 640)), "the shot's left border")
        #expect(!Self.red(try Self.pixel(video, 320, 180, width: 640)), "the shot's middle is the camera's")
    }
}
