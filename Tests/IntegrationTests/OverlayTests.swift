import Foundation
import Testing
import Failures

/// `recorder shoot --overlay FRAME.png`: the frame is in the recording itself, read back by ffmpeg
/// (an independent decoder) pixel by pixel: the frame's opaque border where it is, the camera
/// unchanged where it is clear, a half-transparent part blended; a frame of another shape is fitted,
/// aspect kept. A missing or broken frame stops the shot before anything is recorded.
@Suite struct OverlayTests {
    /// A PNG made by ffmpeg (not by us): `alpha` is a geq expression of X and Y, the colour red.
    static func png(_ path: String, size: String, alpha: String) throws {
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=\(size)", "-frames:v", "1",
                                            "-vf", "format=rgba,geq=r='230':g='20':b='20':a='\(alpha)'", path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// The RGB of pixel (x, y) of the video's first picture, as ffmpeg decodes it.
    static func pixel(_ video: String, _ x: Int, _ y: Int, width: Int, in directory: String) throws -> [Int] {
        let raw = directory + "/first-\(UUID().uuidString).rgb"
        let out = try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", video, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        #expect(out.status == 0, "\(out.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let at = (y * width + x) * 3
        guard at + 2 < bytes.count else { return [] }
        return [Int(bytes[at]), Int(bytes[at + 1]), Int(bytes[at + 2])]
    }

    static func near(_ a: [Int], _ b: [Int], _ tolerance: Int) -> Bool {
        a.count == 3 && b.count == 3 && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func theFrameIsInTheRecordingAndTheCameraShowsThroughItsClearPart() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        // 640x360 (the shot's shape): a 40 px opaque border, a half-transparent square at 300-340, clear elsewhere.
        let frame = box.root + "/frame.png"
        try Self.png(frame, size: "640x360", alpha: "if(lt(X,40)+gt(X,599)+lt(Y,40)+gt(Y,319),255,if(between(X,300,339)*between(Y,160,199),128,0))")
        // The same still picture twice, with and without the frame (a still Y4M: no clock moves).
        let still = box.root + "/still.y4m"
        let made = try Tools.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "smptebars=size=640x360:rate=15", "-frames:v", "15",
                                            "-pix_fmt", "yuv420p", still])
        #expect(made.status == 0, "\(made.stderr)")
        let plain = try box.recorder(["shoot", "--device", "y4m:\(still)", "--seconds", "1", "--json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let bare = box.root + "/bare.mp4"
        try FileManager.default.copyItem(atPath: box.currentVideo, toPath: bare)
        let framed = try box.recorder(["shoot", "--device", "y4m:\(still)", "--seconds", "1", "--overlay", frame, "--json"])
        #expect(framed.status == 0, "\(framed.stderr)")
        let video = box.currentVideo
        #expect(try Probe(video).frames >= 14)

        // The border is the frame's red, over whatever the bars were.
        for (x, y) in [(10, 10), (630, 350), (20, 180), (320, 25)] {
            let seen = try Self.pixel(video, x, y, width: 640, in: box.root)
            #expect(Self.near(seen, [230, 20, 20], 40), "(\(x), \(y)) is \(seen), not the frame's red")
            #expect(!Self.near(try Self.pixel(bare, x, y, width: 640, in: box.root), [230, 20, 20], 40), "(\(x), \(y)) was red without the frame too")
        }
        // Where the frame is clear, the camera's picture, as recorded without it.
        for (x, y) in [(100, 100), (500, 250), (200, 300)] {
            let seen = try Self.pixel(video, x, y, width: 640, in: box.root), under = try Self.pixel(bare, x, y, width: 640, in: box.root)
            #expect(Self.near(seen, under, 12), "(\(x), \(y)): \(seen) with the frame, \(under) without")
        }
        // Half transparent: halfway between the camera and the red.
        let mixed = try Self.pixel(video, 320, 180, width: 640, in: box.root), under = try Self.pixel(bare, 320, 180, width: 640, in: box.root)
        let expected = zip(under, [230, 20, 20]).map { ($0 + $1) / 2 }
        #expect(Self.near(mixed, expected, 25), "(320, 180): \(mixed), expected about \(expected) (\(under) under it)")
    }

    @Test func aFrameOfAnotherShapeIsFittedWithItsAspectKept() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        // A square, fully opaque: on a 16:9 shot it covers a centred 360x360 square, the sides clear.
        let frame = box.root + "/square.png"
        try Self.png(frame, size: "200x200", alpha: "255")
        let result = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "640x360", "--overlay", frame])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.near(try Self.pixel(box.currentVideo, 320, 180, width: 640, in: box.root), [230, 20, 20], 40))
        #expect(Self.near(try Self.pixel(box.currentVideo, 150, 20, width: 640, in: box.root), [230, 20, 20], 40))
        #expect(!Self.near(try Self.pixel(box.currentVideo, 100, 180, width: 640, in: box.root), [230, 20, 20], 60), "the left side is the camera's")
        #expect(!Self.near(try Self.pixel(box.currentVideo, 560, 180, width: 640, in: box.root), [230, 20, 20], 60), "the right side is the camera's")
    }

    @Test func aMissingOrBrokenFrameStopsTheShotBeforeItStarts() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        #expect(try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "160x120"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: box.currentVideo))
        let text = box.root + "/notes.png"
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        let good = box.root + "/good.png"
        try Self.png(good, size: "64x64", alpha: "255")
        let truncated = box.root + "/truncated.png"
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(40)).write(to: URL(fileURLWithPath: truncated))
        for (file, expected) in [(box.root + "/missing.png", Failed(66, "notFound", "ShotFailure.overlayMissing")),
                                 (text, Failed(65, "badData", "ShotFailure.overlayUnusable")),
                                 (truncated, Failed(65, "badData", "ShotFailure.overlayUnusable"))] {
            let result = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--size", "160x120", "--overlay", file, "--json"])
            #expect(failed(result) == expected, "\(file): \(result.stderr)")
            #expect(failureData(result)["path"] as? String == file && failureData(result)["origin"] as? String == "--overlay", "\(result.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: box.currentVideo)) == before, "the previous shot is kept")
        }
        // Through the configuration, the setting is named.
        let configured = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "0.5", "--set", "shoot.overlay=\(text)", "--json"])
        #expect(failed(configured) == Failed(65, "badData", "ShotFailure.overlayUnusable"), "\(configured.stderr)")
        #expect(failureData(configured)["origin"] as? String == "the command line", "\(configured.stdout)")
    }
}
