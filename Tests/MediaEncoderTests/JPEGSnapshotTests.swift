import Foundation
import MediaEncoder
import Testing
import VideoCapture
import MediaValues

/// The live mirror's pictures: a camera's own JPEG goes out untouched when a browser can show it
/// alone; one without Huffman tables (as many UVC cameras send) is decoded and encoded again.
@Suite struct JPEGSnapshotTests {
    static let small = CaptureFormat(pixelFormat: .yuyv, width: 320, height: 180, frameRate: FrameRate(15))

    /// A grey-and-white YUYV picture made into a JPEG by FFmpeg's encoder (which writes DHT).
    func encodedJPEG() throws -> [UInt8] {
        var yuyv = [UInt8](repeating: 128, count: 320 * 180 * 2)
        for i in stride(from: 0, to: yuyv.count / 2, by: 2) { yuyv[i] = 235 }
        return try yuyv.withUnsafeBytes { try JPEGSnapshot().jpeg(of: $0, format: Self.small) }
    }

    /// The same JPEG without its DHT segments.
    func withoutHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var out = Array(jpeg[0..<2]), i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let end = i + 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
            if jpeg[i + 1] != 0xC4 { out += jpeg[i..<end] }
            i = end
        }
        return out + jpeg[i...]
    }

    @Test func aCamerasWholeJPEGGoesOutAsItIs() throws {
        let jpeg = try encodedJPEG()
        let mjpeg = CaptureFormat(pixelFormat: .mjpeg, width: 320, height: 180, frameRate: FrameRate(15))
        let out = try jpeg.withUnsafeBytes { try JPEGSnapshot().jpeg(of: $0, format: mjpeg) }
        #expect(out == jpeg)

        let bare = withoutHuffmanTables(jpeg)
        #expect(bare.count < jpeg.count)
        let redone = try bare.withUnsafeBytes { try JPEGSnapshot().jpeg(of: $0, format: mjpeg) }
        #expect(redone != bare && redone.starts(with: [0xFF, 0xD8]))
        // The redone one has its tables again: it goes out as it is the next time.
        let again = try redone.withUnsafeBytes { try JPEGSnapshot().jpeg(of: $0, format: mjpeg) }
        #expect(again == redone)
    }
}

/// Where a branding frame leaves the live picture clear (the booth's page keeps its buttons
/// there): a frame made by ffmpeg with a band along the bottom (a sixth), a thin border on three
/// sides and a logo in one top corner, which makes no band of the whole top edge.
@Suite struct FrameClearAreaTests {
    @Test func theBandsAlongTheEdgesBoundTheClearArea() throws {
        let png = NSTemporaryDirectory() + "recorder-clear-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=640x360", "-frames:v", "1", "-vf",
                            "format=rgba,geq=r=200:g=180:b=60:a='if(gt(Y,299)+lt(X,8)+gt(X,631)+lt(Y,8)+lt(X,80)*lt(Y,60),255,0)'", png]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)
        let frame = try PictureOverlay(path: png)
        let clear = try frame.clearArea(width: 640, height: 360)
        #expect(clear.bottom == 60.0 / 360 && clear.top == 8.0 / 360, "\(clear)")
        #expect(clear.left == 8.0 / 640 && clear.right == 8.0 / 640, "\(clear)")
        // Scaled (aspect kept) into a picture of another shape: the bands where it puts them.
        let wide = try frame.clearArea(width: 1280, height: 360)
        #expect(wide.left > 0.2 && wide.right > 0.2 && abs(wide.bottom - 60.0 / 360) < 0.01, "\(wide)")
    }
}
