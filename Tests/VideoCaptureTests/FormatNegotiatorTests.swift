import Foundation
import Testing
@testable import VideoCapture
import SystemSupport
import MediaValues

@Suite struct FormatNegotiatorTests {
    static func format(_ pf: PixelFormat, emulated: Bool = false, _ sizes: [(Int, Int, [Int])]) -> FormatCapability {
        FormatCapability(pixelFormat: pf, fourcc: pf.fourcc, label: pf.name, isEmulated: emulated,
                         sizes: .discrete(sizes.map { SizeOption(size: FrameSize(width: $0.0, height: $0.1),
                                                                 rates: .discrete($0.2.map { FrameRate($0) })) }))
    }

    // A typical USB webcam: raw only up to 640x480 at full rate, MJPEG at 720p.
    static let webcam = [
        format(.yuyv, [(640, 480, [30]), (1280, 720, [10])]),
        format(.mjpeg, [(640, 480, [30]), (1280, 720, [30])]),
        format(.rgb24, emulated: true, [(640, 480, [30]), (1280, 720, [30])]),
    ]

    @Test func exactRequestIsHonouredWithoutNotes() throws {
        let choice = try FormatNegotiator.choose(from: Self.webcam, request: CaptureRequest(
            pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480), frameRate: FrameRate(30)), device: "cam")
        #expect(choice.pixelFormat == .yuyv)
        #expect(choice.size == FrameSize(width: 640, height: 480))
        #expect(choice.frameRate.value == 30)
        #expect(choice.differences.isEmpty)
    }

    @Test func autoPrefersTheFormatThatMeetsSizeAndRate() throws {
        let choice = try FormatNegotiator.choose(from: Self.webcam, request: CaptureRequest(
            size: FrameSize(width: 1280, height: 720), frameRate: FrameRate(30)), device: "cam")
        // YUYV offers 720p only at 10 fps; emulated RGB costs CPU; MJPEG is native and meets both.
        #expect(choice.pixelFormat == .mjpeg)
        #expect(!choice.isEmulated)
    }

    @Test func autoPrefersCheapestWhenAllMatch() throws {
        let choice = try FormatNegotiator.choose(from: Self.webcam, request: CaptureRequest(
            size: FrameSize(width: 640, height: 480), frameRate: FrameRate(30)), device: "cam")
        #expect(choice.pixelFormat == .yuyv)
    }

    @Test func closestSizeAndRateAreChosenAndReported() throws {
        let choice = try FormatNegotiator.choose(from: Self.webcam, request: CaptureRequest(
            pixelFormat: .yuyv, size: FrameSize(width: 1920, height: 1080), frameRate: FrameRate(60)), device: "cam")
        #expect(choice.size == FrameSize(width: 1280, height: 720))
        #expect(choice.differences == [.closestSize(asked: FrameSize(width: 1920, height: 1080), offered: FrameSize(width: 1280, height: 720)),
                                       .closestRate(asked: FrameRate(60), offered: choice.frameRate, size: FrameSize(width: 1280, height: 720))])
    }

    @Test func missingFormatNamesWhatIsOffered() {
        #expect {
            try FormatNegotiator.choose(from: Self.webcam, request: CaptureRequest(pixelFormat: .nv12), device: "cam")
        } throws: { error in
            guard let e = error as? CaptureError else { return false }
            // (the formats it names are in its words: the edges' snapshots, `CaptureError.unsupportedFormat`,
            // which FormatNegotiator words for a webcam of YUYV and MJPEG)
            return e.kind == .unsupportedFormat && e.operation == "negotiate" && e.device == "cam"
        }
    }

    @Test func stepwiseSizesAreClampedToTheStep() throws {
        let caps = [FormatCapability(pixelFormat: .nv12, fourcc: "NV12", label: "", isEmulated: false,
                                     sizes: .range(min: FrameSize(width: 16, height: 16), max: FrameSize(width: 1920, height: 1080),
                                                   step: FrameSize(width: 16, height: 8), rates: .range(min: FrameRate(1), max: FrameRate(30))))]
        let choice = try FormatNegotiator.choose(from: caps, request: CaptureRequest(
            size: FrameSize(width: 1000, height: 3000), frameRate: FrameRate(60)), device: "cam")
        #expect(choice.size == FrameSize(width: 992, height: 1080))
        #expect(choice.frameRate.value == 30)
    }

    @Test func unknownFourccsAreIgnoredAndAnEmptyListFails() {
        let caps = [FormatCapability(pixelFormat: nil, fourcc: "Q123", label: "weird", isEmulated: false, sizes: .unknown)]
        #expect {
            try FormatNegotiator.choose(from: caps, request: CaptureRequest(), device: "cam")
        } throws: { error in
            (error as? CaptureError)?.kind == .unsupportedFormat
        }
    }
}

@Suite struct PixelFormatTests {
    @Test func namesAndFourccsRoundTrip() {
        for format in PixelFormat.allCases {
            #expect(PixelFormat(name: format.name) == format)
            #expect(PixelFormat(name: format.fourcc) == format || format == .yu12 || format == .yv12)
        }
        #expect(PixelFormat.yuyv.fourcc == "YUYV")
        #expect(PixelFormat.rgb24.fourcc == "RGB3")
        #expect(PixelFormat(name: "i420") == .yu12)
        #expect(PixelFormat(name: "nope") == nil)
    }

    @Test func costOrderPutsCopyFirstAndJPEGLast() {
        #expect(PixelFormat.h264.cpuCost < PixelFormat.yu12.cpuCost)
        #expect(PixelFormat.yu12.cpuCost < PixelFormat.yuyv.cpuCost)
        #expect(PixelFormat.rgb24.cpuCost < PixelFormat.mjpeg.cpuCost)
    }

    @Test func imageSizes() {
        #expect(PixelFormat.yuyv.imageSize(width: 640, height: 480) == 614_400)
        #expect(PixelFormat.nv12.imageSize(width: 640, height: 480) == 460_800)
        #expect(PixelFormat.mjpeg.imageSize(width: 640, height: 480) == nil)
    }
}

@Suite struct SourceTests {
    @Test func y4mHeaderParsing() throws {
        let f = try Y4MSource.parseHeader("YUV4MPEG2 W640 H360 F30000:1001 Ip A1:1 C420jpeg", path: "x")
        #expect(f.width == 640 && f.height == 360 && f.pixelFormat == .yu12)
        #expect(abs(f.frameRate.value - 29.97) < 0.01)
        #expect(throws: CaptureError.self) { try Y4MSource.parseHeader("RIFF junk", path: "x") }
        #expect(throws: CaptureError.self) { try Y4MSource.parseHeader("YUV4MPEG2 W640 H360 C444", path: "x") }
        #expect(throws: CaptureError.self) { try Y4MSource.parseHeader("YUV4MPEG2 W0 H360", path: "x") }
    }

    /// A 6x4 4:2:0 file with two frames whose every byte is distinct, written by hand.
    private static func y4mFile(frames: Int = 2, truncate: Int = 0) throws -> (path: String, frames: [[UInt8]]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("src-\(UUID().uuidString).y4m").path
        var bytes = Array("YUV4MPEG2 W6 H4 F25:1 C420jpeg\n".utf8)
        var frameBytes: [[UInt8]] = []
        for f in 0..<frames {
            let frame = (0..<(24 + 6 + 6)).map { UInt8((f * 100 + $0) & 0xff) }
            frameBytes.append(frame)
            bytes += Array("FRAME\n".utf8) + frame
        }
        try Data(bytes.dropLast(truncate)).write(to: URL(fileURLWithPath: path))
        return (path, frameBytes)
    }

    @Test func y4mFramesReadIntoAPaddedPictureLandRowByRow() throws {
        let (path, frames) = try Self.y4mFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Y4MSource(path: path)
        #expect(source.format.pixelFormat.planeSizes(width: 6, height: 4)!.map(\.width) == [6, 3, 3])
        // Strides wider than the rows, as libavcodec aligns them, with a guard byte pattern between.
        let strides = [8, 5, 5], heights = [4, 2, 2]
        let y = UnsafeMutablePointer<UInt8>.allocate(capacity: 32), u = UnsafeMutablePointer<UInt8>.allocate(capacity: 10),
            v = UnsafeMutablePointer<UInt8>.allocate(capacity: 10)
        defer { y.deallocate(); u.deallocate(); v.deallocate() }
        let planes = [y, u, v]
        for expected in frames {
            for (plane, height) in heights.enumerated() { planes[plane].initialize(repeating: 0xEE, count: strides[plane] * height) }
            let stamp = try source.readFrame(into: PlanarPicture(planes: planes, strides: strides), stop: StopSignal())
            let memory = heights.indices.map { Array(UnsafeBufferPointer(start: planes[$0], count: strides[$0] * heights[$0])) }
            #expect(stamp != nil)
            var offset = 0
            for (plane, (width, height)) in [(6, 4), (3, 2), (3, 2)].enumerated() {
                for row in 0..<height {
                    let got = memory[plane][(row * strides[plane])..<(row * strides[plane] + width)]
                    #expect(Array(got) == Array(expected[offset..<(offset + width)]))
                    #expect(memory[plane][row * strides[plane] + width] == 0xEE)
                    offset += width
                }
            }
        }
        #expect(try source.readFrame(into: PlanarPicture(planes: [], strides: []), stop: StopSignal()) == nil)
    }

    @Test func y4mLentFramesAndStampsFollowTheFile() throws {
        let (path, frames) = try Self.y4mFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Y4MSource(path: path)
        var seen: [([UInt8], FrameStamp)] = []
        while try source.nextFrame(stop: StopSignal(), { seen.append(($0.withBytes { Array($0) }, $0.stamp)) }) {}
        #expect(seen.map(\.0) == frames)
        #expect(seen.map(\.1) == [FrameStamp(timestampMicroseconds: 0, sequence: 0), FrameStamp(timestampMicroseconds: 40_000, sequence: 1)])
    }

    @Test func aTruncatedY4MFrameIsAnError() throws {
        let (path, _) = try Self.y4mFile(truncate: 5)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Y4MSource(path: path)
        #expect(try source.nextFrame(stop: StopSignal()) { _ in } == true)
        let error = #expect(throws: CaptureError.self) { try source.nextFrame(stop: StopSignal()) { _ in } }
        // Frame 1 ends with the file: bad input, not a failure of the disk.
        #expect(error?.kind == .badInput && error?.operation == "read frame 1" && error?.errno == 0, "\(String(describing: error))")
    }

    @Test func testPatternFramesDifferAndAdvance() throws {
        let source = try TestPatternSource(size: FrameSize(width: 64, height: 48), paced: false)
        var frames: [[UInt8]] = []
        var stamps: [Int64] = []
        for _ in 0..<3 {
            _ = try source.nextFrame(stop: StopSignal()) { frame in
                frames.append(frame.withBytes { Array($0) })
                stamps.append(frame.timestampMicroseconds)
            }
        }
        #expect(frames.count == 3)
        #expect(frames[0] != frames[1])
        #expect(stamps[1] - stamps[0] == 33_333)
        #expect(throws: CaptureError.self) { try TestPatternSource(size: FrameSize(width: 15, height: 9)) }
    }

    @Test func stopSignalEndsTheTestPattern() throws {
        let source = try TestPatternSource(size: FrameSize(width: 64, height: 48))
        let stop = StopSignal()
        stop.set()
        #expect(try source.nextFrame(stop: stop) { _ in } == false)
    }
}
