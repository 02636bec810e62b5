#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport
package import MediaValues

/// The built-in test pattern (`--device testsrc`): colour bars, a sweeping bar, a frame counter, the
/// clock, and a white square flashed on the first frame of every second (the moment the test beep starts, so
/// sync can be checked on a file), in planar 4:2:0 (so it needs no conversion), paced in real time
/// like a camera.
package final class TestPatternSource: FrameSource {
    package let format: CaptureFormat
    package let name = "test pattern"
    private var image: [UInt8]
    private let pattern: TestPattern
    private var index: UInt64 = 0
    private var startMicroseconds: Int64 = 0
    private let paced: Bool

    /// - Parameter paced: false delivers frames as fast as they are asked for (benchmarks, tests).
    package init(size: FrameSize = CaptureRequest.defaultSize, frameRate: FrameRate = CaptureRequest.defaultFrameRate,
                paced: Bool = true) throws(CaptureError) {
        guard size.width >= 16, size.height >= 16, size.width % 2 == 0, size.height % 2 == 0 else {
            throw CaptureError(.badInput, device: "testsrc", operation: "",
                               detail: "the test pattern needs an even size of at least 16x16; got \(size).")
        }
        format = CaptureFormat(pixelFormat: .yu12, width: size.width, height: size.height, frameRate: frameRate)
        image = [UInt8](repeating: 0, count: PixelFormat.yu12.imageSize(width: size.width, height: size.height)!)
        pattern = TestPattern(width: size.width, height: size.height)
        self.paced = paced
    }

    package func nextFrame(stop: StopSignal, _ body: (borrowing VideoFrame) -> Void) throws(CaptureError) -> Bool {
        if index == 0 { startMicroseconds = MonotonicClock.nowMicroseconds() }
        let rate = format.frameRate
        let due = startMicroseconds + Int64(index) * 1_000_000 * Int64(rate.denominator) / Int64(rate.numerator)
        if paced {
            while true {
                if stop.isSet { return false }
                let wait = due - MonotonicClock.nowMicroseconds()
                if wait <= 0 { break }
                Posix.pause(microseconds: Int(wait))
            }
        } else if stop.isSet {
            return false
        }
        // The first frame at or after each whole second since the first frame.
        let num = UInt64(rate.numerator), den = UInt64(rate.denominator)
        let flash = index == 0 || (index * den) / num != ((index - 1) * den) / num
        let now = Posix.wallClock()
        pattern.draw(into: &image, frame: index, flash: flash, clockMilliseconds: Int64(now.seconds) * 1000 + Int64(now.nanoseconds) / 1_000_000)
        image.withUnsafeBytes { bytes in
            body(VideoFrame(format: format, bytes: bytes, timestampMicroseconds: due, sequence: index))
        }
        index += 1
        return true
    }

    package func close() {}
}

/// Draws the test picture into an I420 image: colour bars (drawn once per size and copied per
/// frame), a moving band, the second's flash, and two counters bottom left: the frame number, and
/// above it the wall clock's milliseconds when the picture was made (modulo 100,000), so a screen
/// showing the picture can be timed against the clock (the booth test reads it off the page).
package struct TestPattern {
    let width: Int, height: Int
    private let background: [UInt8]

    // SMPTE-like bars as (Y, U, V).
    static let bars: [(UInt8, UInt8, UInt8)] = [
        (235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128),
    ]

    // 3x5 digit glyphs, one bit per cell, rows top to bottom.
    static let glyphs: [[UInt8]] = [
        [7, 5, 5, 5, 7], [2, 6, 2, 2, 7], [7, 1, 7, 4, 7], [7, 1, 7, 1, 7], [5, 5, 7, 1, 1],
        [7, 4, 7, 1, 7], [7, 4, 7, 5, 7], [7, 1, 1, 1, 1], [7, 5, 7, 5, 7], [7, 5, 7, 1, 7],
    ]

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let cw = width / 2, ch = height / 2
        let uBase = width * height, vBase = uBase + cw * ch
        var image = [UInt8](repeating: 0, count: uBase + 2 * cw * ch)
        let barWidth = max(width / Self.bars.count, 1)
        for x in 0..<width {
            let bar = Self.bars[min(x / barWidth, Self.bars.count - 1)]
            for y in 0..<height { image[y * width + x] = bar.0 }
        }
        for x in 0..<cw {
            let bar = Self.bars[min((x * 2) / barWidth, Self.bars.count - 1)]
            for y in 0..<ch {
                image[uBase + y * cw + x] = bar.1
                image[vBase + y * cw + x] = bar.2
            }
        }
        background = image
    }

    /// One picture: `frame` the frame number, `flash` the second's white square, `clockMilliseconds`
    /// the wall clock when it was made (drawn modulo 100,000; nil draws no clock).
    package func draw(into image: inout [UInt8], frame: UInt64, flash: Bool = false, clockMilliseconds: Int64? = nil) {
        let width = self.width, height = self.height
        let cw = width / 2, ch = height / 2
        let uBase = width * height, vBase = uBase + cw * ch
        image.withUnsafeMutableBufferPointer { p in
            background.withUnsafeBufferPointer { b in
                // (memcpy returns its destination)
                _ = memcpy(p.baseAddress!, b.baseAddress!, min(p.count, b.count))
            }
            // A moving vertical band so every frame differs and motion is visible.
            let sweep = Int(frame * 4) % width
            let band = max(sweep - 7, 0)..<min(sweep + 8, width)
            if !band.isEmpty {
                for y in 0..<height { for x in band { p[y * width + x] = 255 } }
            }
            // The second's flash, top right: a white square a quarter of the picture wide and high.
            if flash {
                for y in 0..<height / 4 {
                    for x in (width - width / 4)..<width { p[y * width + x] = 235 }
                }
                for y in 0..<ch / 4 {
                    for x in (cw - cw / 4)..<cw {
                        p[uBase + y * cw + x] = 128
                        p[vBase + y * cw + x] = 128
                    }
                }
            }
            // The frame number bottom left, the clock above it: white digits on black boxes.
            let cell = max(height / 60, 2)
            let boxH = 7 * cell
            let counterTop = height - boxH - cell
            Self.number(String(frame), top: counterTop, cell: cell, p, width: width, height: height)
            if let clockMilliseconds {
                let clock = String(clockMilliseconds % 100_000)
                Self.number(String(repeating: "0", count: 5 - clock.count) + clock, top: counterTop - boxH - cell, cell: cell, p,
                            width: width, height: height)
            }
        }
    }

    /// `digits` in a black box whose top is at row `top`, from the left edge.
    private static func number(_ digits: String, top: Int, cell: Int, _ p: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) {
        let digits = Array(digits.utf8)
        let boxW = (digits.count * 4 + 1) * cell, boxH = 7 * cell
        for y in max(top, 0)..<min(top + boxH, height) {
            for x in 0..<min(boxW, width) { p[y * width + x] = 16 }
        }
        for (i, digit) in digits.enumerated() {
            let glyph = glyphs[Int(digit - 48)]
            for gy in 0..<5 {
                for gx in 0..<3 where glyph[gy] & (4 >> gx) != 0 {
                    let x0 = (1 + i * 4 + gx) * cell, y0 = top + (1 + gy) * cell
                    for y in y0..<min(y0 + cell, height) where y >= 0 {
                        for x in x0..<min(x0 + cell, width) { p[y * width + x] = 235 }
                    }
                }
            }
        }
    }

    /// One picture of a pattern made for this call (tests that draw a few pictures).
    package static func draw(into image: inout [UInt8], width: Int, height: Int, frame: UInt64, flash: Bool = false) {
        TestPattern(width: width, height: height).draw(into: &image, frame: frame, flash: flash)
    }
}
