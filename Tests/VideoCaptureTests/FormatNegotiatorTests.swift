import Testing
@testable import VideoCapture

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
        #expect(choice.notes.isEmpty)
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
        #expect(choice.notes.count == 2)
        #expect(choice.notes[0].contains("1920x1080"))
    }

    @Test func missingFormatNamesWhatIsOffered() {
        #expect {
            try FormatNegotiator.choose(from: Self.webcam, request: CaptureRequest(pixelFormat: .nv12), device: "cam")
        } throws: { error in
            let e = error as! CaptureError
            return e.kind == .unsupportedFormat && e.description.contains("yuyv") && e.description.contains("mjpeg")
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
        #expect(throws: CaptureError.self) {
            try FormatNegotiator.choose(from: caps, request: CaptureRequest(), device: "cam")
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

    @Test func testPatternFramesDifferAndAdvance() throws {
        let source = try TestPatternSource(size: FrameSize(width: 64, height: 48), paced: false)
        var frames: [[UInt8]] = []
        var stamps: [Int64] = []
        for _ in 0..<3 {
            _ = try source.nextFrame(stop: StopSignal()) { frame in
                frames.append(Array(frame.bytes))
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
