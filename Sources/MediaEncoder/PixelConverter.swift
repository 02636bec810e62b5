internal import CFFmpeg
import MediaValues

/// Converts pictures to the output picture's format (the encoder's yuv420p, or the preview's yuvj420p) with libswscale, into pictures its caller owns and
/// reuses (planar 4:2:0 is a plain copy).
final class PixelConverter {
    private var context: OpaquePointer?
    private var source: (AVPixelFormat, Int32, Int32)?

    deinit { cff_sws_freeContext(context) }

    /// A reference-counted yuv420p picture of the given size, for `convert` to fill again and again.
    static func makePicture(width: Int, height: Int) throws(MediaError) -> UnsafeMutablePointer<AVFrame> {
        guard let frame = cff_av_frame_alloc() else { throw MediaError(.failed, .noObject(function: "av_frame_alloc")) }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let code = cff_av_frame_get_buffer(frame, 0)
        if code < 0 {
            freePicture(frame)
            throw MediaError.from(code, "av_frame_get_buffer")
        }
        return frame
    }

    static func freePicture(_ picture: UnsafeMutablePointer<AVFrame>) {
        var f: UnsafeMutablePointer<AVFrame>? = picture
        cff_av_frame_free(&f)
    }

    /// A decoded frame's first four planes and their strides, as libswscale takes them.
    static func planes(of frame: UnsafeMutablePointer<AVFrame>) -> ([UnsafePointer<UInt8>?], [Int32]) {
        // Read the fixed-size C arrays (imported as tuples) element by element: rebinding the
        // memory of a temporary copy is not allowed.
        let d = frame.pointee.data, l = frame.pointee.linesize
        return ([d.0, d.1, d.2, d.3].map { $0.map { UnsafePointer($0) } }, [l.0, l.1, l.2, l.3])
    }

    /// Scales a decoded frame, whatever its pixel format and size, into `output`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, into output: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        let (planes, strides) = Self.planes(of: frame)
        try convert(planes: planes, linesize: strides, format: AVPixelFormat(frame.pointee.format),
                    width: frame.pointee.width, height: frame.pointee.height, into: output)
    }

    /// Scales `planes` (of `format`, `width`x`height`) into `output`, which it makes writable first
    /// in case the encoder still holds a reference to the picture it had last time.
    func convert(planes: [UnsafePointer<UInt8>?], linesize: [Int32], format: AVPixelFormat,
                 width: Int32, height: Int32, into output: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        if source == nil || source! != (format, width, height) {
            context = cff_sws_getCachedContext(context, width, height, format,
                                           output.pointee.width, output.pointee.height, AVPixelFormat(output.pointee.format),
                                           CFF_SWS_BILINEAR, nil, nil, nil)
            guard context != nil else {
                throw MediaError(.badInput, .cannotConvert(format: String(cString: cff_av_get_pix_fmt_name(format)), width: Int(width), height: Int(height)))
            }
            source = (format, width, height)
        }
        try MediaError.check(cff_av_frame_make_writable(output), "av_frame_make_writable")
        let scaled = planes.withUnsafeBufferPointer { src in
            linesize.withUnsafeBufferPointer { srcStride in
                withUnsafeMutablePointer(to: &output.pointee.data) { dataTuple in
                    dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dst in
                        withUnsafePointer(to: &output.pointee.linesize) { strideTuple in
                            strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { dstStride in
                                cff_sws_scale(context, src.baseAddress, srcStride.baseAddress, 0, height, dst, dstStride)
                            }
                        }
                    }
                }
            }
        }
        if scaled <= 0 { throw MediaError(.failed, .nothingConverted) }
    }
}
