internal import CFFmpeg
import Glibc
import Synchronization
import SystemSupport
package import MediaValues

/// A branding frame (`recorder shoot --overlay FRAME.png`, `shoot.overlay`): a PNG with alpha,
/// decoded once by libavcodec's PNG decoder, scaled once per picture size by libswscale into
/// 4:2:0 planes with their alpha (aspect kept, centred, transparent around it), and blended onto
/// every picture before it is encoded, so the recording carries it (a crash-safe partial too).
///
/// The blend skips what the frame leaves clear: each row keeps the runs where alpha is above 0, so
/// a frame around the picture costs only its border. 8-bit, per pixel:
/// `out = (picture * (255 - alpha) + frame * alpha + 127) / 255`; the chroma planes take the mean
/// alpha of their 2x2 pixels.
package final class PictureOverlay: Sendable, Hashable {
    /// The PNG's path, as given.
    package let path: String
    /// The PNG's size.
    package let width: Int
    package let height: Int
    /// RGBA, 8 bits a channel, row after row.
    private let rgba: [UInt8]
    /// The frame at each picture size asked for so far.
    private let rendered = Mutex<[Int: Rendered]>([:])

    /// Reads and decodes the PNG at `path` (blocking). A file that is not a PNG, or one
    /// libavcodec cannot decode, is `.badInput`; one that cannot be read says why.
    package init(path: String) throws(MediaError) {
        try FFmpegLibraries.load()
        self.path = path
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDONLY | O_CLOEXEC) } catch {
            throw MediaError(.badInput, .system(function: "open", errno: error.code), code: error.code, path: path)
        }
        defer { Posix.closeAfterUse(fd) }
        let bytes: [UInt8]
        do throws(Descriptors.Errno) { bytes = try Posix.readAll(fd, limit: 64 << 20) } catch {
            throw MediaError(.badInput, .system(function: "read", errno: error.code), code: error.code, path: path)
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 8, Array(bytes.prefix(8)) == signature else {
            throw MediaError(.badInput, .notPNG, path: path)
        }
        guard let codec = cff_avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.missingCodec, .noDecoder(.png))
        }
        let decoder = try DecoderContext(codec)
        try MediaError.check(cff_avcodec_open2(decoder.context, codec, nil), "avcodec_open2(png)")
        let decoded = bytes.withUnsafeBytes { raw -> Int32 in
            decoder.packet.pointee.data = UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            decoder.packet.pointee.size = Int32(raw.count)
            defer { decoder.packet.pointee.data = nil; decoder.packet.pointee.size = 0 }
            let sent = cff_avcodec_send_packet(decoder.context, decoder.packet)
            return sent < 0 ? sent : cff_avcodec_receive_frame(decoder.context, decoder.frame)
        }
        let frame = decoder.frame
        guard decoded >= 0, frame.pointee.width > 0, frame.pointee.height > 0 else {
            throw MediaError(.badInput, .pngUndecodable, code: decoded, path: path)
        }
        guard frame.pointee.width <= 8192, frame.pointee.height <= 8192 else {
            throw MediaError(.badInput, .pictureTooLarge(width: Int(frame.pointee.width), height: Int(frame.pointee.height)), path: path)
        }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        self.width = width
        self.height = height
        // Whatever the PNG holds (palette, grey, 16 bits, no alpha) becomes RGBA.
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let converted = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let context = cff_sws_getCachedContext(nil, frame.pointee.width, frame.pointee.height, AVPixelFormat(frame.pointee.format),
                                                   frame.pointee.width, frame.pointee.height, AV_PIX_FMT_RGBA, CFF_SWS_BILINEAR, nil, nil, nil)
            guard let context else { return -1 }
            defer { cff_sws_freeContext(context) }
            let (planes, strides) = PixelConverter.planes(of: frame)
            var dst: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var dstStride: [Int32] = [Int32(width * 4), 0, 0, 0]
            return cff_sws_scale(context, planes, strides, 0, frame.pointee.height, &dst, &dstStride)
        }
        guard converted > 0 else {
            throw MediaError(.badInput, .pixelsUnreadable(format: String(cString: cff_av_get_pix_fmt_name(AVPixelFormat(frame.pointee.format)))), path: path)
        }
        rgba = out
    }

    package static func == (a: PictureOverlay, b: PictureOverlay) -> Bool { a === b }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The frame at one picture size: 4:2:0 planes, the alpha at full and at chroma resolution,
    /// and per row the runs where alpha is above 0.
    struct Rendered: Sendable {
        let width: Int, height: Int
        let y: [UInt8], u: [UInt8], v: [UInt8], alpha: [UInt8], chromaAlpha: [UInt8]
        /// Per luma row, [start, end) pairs of columns to blend; per chroma row, the same.
        let runs: [[Int]], chromaRuns: [[Int]]
    }

    /// The frame scaled to `width`x`height` (even), aspect kept and centred. `fullRange`: the
    /// picture's YUV is full range (a JPEG), not video range (H.264's yuv420p).
    func rendered(width: Int, height: Int, fullRange: Bool = false) throws(MediaError) -> Rendered {
        let key = width << 32 | height << 1 | (fullRange ? 1 : 0)
        if let known = rendered.withLock({ $0[key] }) { return known }
        let made = try render(width: width, height: height, fullRange: fullRange)
        rendered.withLock { $0[key] = made }
        return made
    }

    private func render(width: Int, height: Int, fullRange: Bool) throws(MediaError) -> Rendered {
        // The fitted size: the whole PNG inside the picture, even, at least 2x2.
        let scale = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let fw = max(2, min(width, Int((Double(self.width) * scale).rounded()) & ~1))
        let fh = max(2, min(height, Int((Double(self.height) * scale).rounded()) & ~1))
        let x0 = ((width - fw) / 2) & ~1, y0 = ((height - fh) / 2) & ~1
        // libswscale into YUVA 4:2:0 at the fitted size.
        var fy = [UInt8](repeating: 0, count: fw * fh), fa = [UInt8](repeating: 0, count: fw * fh)
        var fu = [UInt8](repeating: 128, count: fw / 2 * (fh / 2)), fv = [UInt8](repeating: 128, count: fw / 2 * (fh / 2))
        let scaled: Int32 = rgba.withUnsafeBufferPointer { source in
            fy.withUnsafeMutableBufferPointer { y in fu.withUnsafeMutableBufferPointer { u in
                fv.withUnsafeMutableBufferPointer { v in fa.withUnsafeMutableBufferPointer { a in
                    let context = cff_sws_getCachedContext(nil, Int32(self.width), Int32(self.height), AV_PIX_FMT_RGBA,
                                                           Int32(fw), Int32(fh), AV_PIX_FMT_YUVA420P, CFF_SWS_BICUBIC, nil, nil, nil)
                    guard let context else { return -1 }
                    defer { cff_sws_freeContext(context) }
                    if fullRange { cff_sws_set_full_range_output(context) }
                    let src: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                    let srcStride: [Int32] = [Int32(self.width * 4), 0, 0, 0]
                    var dst: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress, a.baseAddress]
                    var dstStride: [Int32] = [Int32(fw), Int32(fw / 2), Int32(fw / 2), Int32(fw)]
                    return cff_sws_scale(context, src, srcStride, 0, Int32(self.height), &dst, &dstStride)
                } }
            } }
        }
        guard scaled > 0 else {
            throw MediaError(.failed, .cannotScale(width: Int(width), height: Int(height)), path: path)
        }
        // Placed into the picture's size: clear (alpha 0) around it.
        var y = [UInt8](repeating: 0, count: width * height), alpha = [UInt8](repeating: 0, count: width * height)
        let cw = width / 2, ch = height / 2
        var u = [UInt8](repeating: 128, count: cw * ch), v = [UInt8](repeating: 128, count: cw * ch)
        var chromaAlpha = [UInt8](repeating: 0, count: cw * ch)
        for row in 0..<fh {
            for col in 0..<fw {
                y[(y0 + row) * width + x0 + col] = fy[row * fw + col]
                alpha[(y0 + row) * width + x0 + col] = fa[row * fw + col]
            }
        }
        for row in 0..<(fh / 2) {
            for col in 0..<(fw / 2) {
                let at = (y0 / 2 + row) * cw + x0 / 2 + col
                u[at] = fu[row * (fw / 2) + col]
                v[at] = fv[row * (fw / 2) + col]
                let a00 = Int(fa[(2 * row) * fw + 2 * col]), a01 = Int(fa[(2 * row) * fw + 2 * col + 1])
                let a10 = Int(fa[(2 * row + 1) * fw + 2 * col]), a11 = Int(fa[(2 * row + 1) * fw + 2 * col + 1])
                chromaAlpha[at] = UInt8((a00 + a01 + a10 + a11 + 2) / 4)
            }
        }
        func runs(_ plane: [UInt8], _ w: Int, _ h: Int) -> [[Int]] {
            (0..<h).map { row in
                var result: [Int] = []
                var start: Int?
                for col in 0..<w {
                    let on = plane[row * w + col] > 0
                    if on, start == nil { start = col }
                    if !on, let s = start { result += [s, col]; start = nil }
                }
                if let s = start { result += [s, w] }
                return result
            }
        }
        return Rendered(width: width, height: height, y: y, u: u, v: v, alpha: alpha, chromaAlpha: chromaAlpha,
                        runs: runs(alpha, width, height), chromaRuns: runs(chromaAlpha, cw, ch))
    }

    /// Blends `frame` onto the 4:2:0 `picture` (its planes, of `frame`'s size).
    static func blend(_ frame: Rendered, into picture: UnsafeMutablePointer<AVFrame>) {
        let d = picture.pointee.data, l = picture.pointee.linesize
        guard let py = d.0, let pu = d.1, let pv = d.2 else { return }
        blendPlane(py, stride: Int(l.0), frame.y, frame.alpha, width: frame.width, runs: frame.runs)
        blendPlane(pu, stride: Int(l.1), frame.u, frame.chromaAlpha, width: frame.width / 2, runs: frame.chromaRuns)
        blendPlane(pv, stride: Int(l.2), frame.v, frame.chromaAlpha, width: frame.width / 2, runs: frame.chromaRuns)
    }

    private static func blendPlane(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, _ over: [UInt8], _ alpha: [UInt8],
                                   width: Int, runs: [[Int]]) {
        over.withUnsafeBufferPointer { o in
            alpha.withUnsafeBufferPointer { a in
                for (row, spans) in runs.enumerated() where !spans.isEmpty {
                    let line = plane + row * stride
                    let base = row * width
                    var i = 0
                    while i < spans.count {
                        for col in spans[i]..<spans[i + 1] {
                            let k = UInt32(a[base + col])
                            if k == 255 {
                                line[col] = o[base + col]
                            } else {
                                let mixed = UInt32(line[col]) * (255 - k) + UInt32(o[base + col]) * k + 127
                                line[col] = UInt8(truncatingIfNeeded: mixed / 255)
                            }
                        }
                        i += 2
                    }
                }
            }
        }
    }
}
