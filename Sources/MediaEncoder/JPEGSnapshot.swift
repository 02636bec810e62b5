internal import CFFmpeg
package import VideoCapture
package import MediaValues

/// Turns one raw camera frame into a small JPEG for the kiosk's live preview: scaled down with
/// libswscale, encoded with libavcodec's MJPEG encoder. Keeps its contexts between calls, so a
/// preview refreshed a few times a second costs one scale and one encode per picture.
///
/// Not thread-safe: one owner calls it from one thread at a time.
package final class JPEGSnapshot {
    /// The widest picture it makes; larger frames are scaled down, keeping their shape.
    package let maximumWidth: Int
    private var converter = PixelConverter()
    private var decoder: MJPEGDecoder?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private let packet: UnsafeMutablePointer<AVPacket>

    /// A branding frame blended onto every picture (the kiosk's live mirror shows what the recording will).
    private let overlay: PictureOverlay?
    /// Whether a picture that gets the frame is turned left for right first (the guest's live
    /// mirror: the frame reads as recorded, the guest's picture stays a mirror).
    package let mirrorsUnderOverlay: Bool

    /// Whether the JPEGs it makes are mirrored already (a frame, and `mirrorsUnderOverlay`): the
    /// page shows them as they come, where it mirrors a plain camera picture itself.
    package var mirrors: Bool { overlay != nil && mirrorsUnderOverlay }

    /// Where the frame of the last JPEG leaves its picture clear (nil: no frame).
    package private(set) var frameClearArea: (top: Double, bottom: Double, left: Double, right: Double)?
    private var clearAreaSize = (0, 0)

    package init(maximumWidth: Int = 640, overlay: PictureOverlay? = nil, mirrorsUnderOverlay: Bool = false) throws(MediaError) {
        self.overlay = overlay
        self.mirrorsUnderOverlay = mirrorsUnderOverlay
        try FFmpegLibraries.load()
        guard let packet = cff_av_packet_alloc() else { throw MediaError(.failed, .noObject(function: "av_packet_alloc")) }
        self.packet = packet
        self.maximumWidth = maximumWidth
    }

    deinit {
        releaseEncoder()
        var p: UnsafeMutablePointer<AVPacket>? = packet
        cff_av_packet_free(&p)
    }

    /// The JPEG of `bytes`, a whole frame laid out as `format` describes. Compressed H.264 frames
    /// have no preview (decoding a GOP for a thumbnail is not worth a kiosk's CPU).
    package func jpeg(of bytes: UnsafeRawBufferPointer, format: CaptureFormat) throws(MediaError) -> [UInt8] {
        // A camera's own JPEG that fits goes out as it is, with no decode and no encode, when a
        // browser can show it alone: UVC cameras often leave the Huffman tables (DHT) out of their
        // frames, and such a frame is decoded and encoded again below.
        if overlay == nil, format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg, format.width <= maximumWidth, Self.hasHuffmanTables(bytes) {
            return Array(bytes)
        }
        let (width, height) = outputSize(format.width, format.height)
        let output = try preparedPicture(width: width, height: height)
        switch format.pixelFormat {
        case .h264:
            throw MediaError(.badInput, .noPreviewOfH264)
        case .mjpeg, .jpeg:
            if decoder == nil { decoder = try MJPEGDecoder() }
            guard let frame = decoder?.decode(bytes) else {
                throw MediaError(.badInput, .damagedJPEG)
            }
            try converter.convert(frame, into: output)
        default:
            guard let base = bytes.baseAddress, bytes.count >= ImagePlanes.requiredBytes(format) else {
                throw MediaError(.badInput, .frameShorterThanFormat)
            }
            let planes = ImagePlanes(format, base: base)
            try converter.convert(planes: planes.data, linesize: planes.linesize, format: format.pixelFormat.avPixelFormat,
                                  width: Int32(format.width), height: Int32(format.height), into: output)
        }
        // (the JPEG's YUV is full range)
        if let overlay {
            if mirrorsUnderOverlay { PictureMirror.flip(output) }
            PictureOverlay.blend(try overlay.rendered(width: width, height: height, fullRange: true), into: output)
            if clearAreaSize != (width, height) {
                frameClearArea = try overlay.clearArea(width: width, height: height)
                clearAreaSize = (width, height)
            }
        }
        return try encode(output)
    }

    /// The JPEG of a decoded picture (a poster from a posted video), scaled as a camera frame is.
    func jpeg(of frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> [UInt8] {
        let (width, height) = outputSize(Int(frame.pointee.width), Int(frame.pointee.height))
        let output = try preparedPicture(width: width, height: height)
        try converter.convert(frame, into: output)
        return try encode(output)
    }

    /// Whether `jpeg` starts with SOI and has a DHT segment before its scan (SOS).
    static func hasHuffmanTables(_ jpeg: UnsafeRawBufferPointer) -> Bool {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return false }
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            if marker == 0xC4 { return true }
            if marker == 0xDA { return false }
            i += 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
        }
        return false
    }

    private func outputSize(_ width: Int, _ height: Int) -> (Int, Int) {
        guard width > maximumWidth else { return (width & ~1, height & ~1) }
        let scaledHeight = Int((Double(height) * Double(maximumWidth) / Double(width)).rounded())
        return (maximumWidth & ~1, max(scaledHeight & ~1, 2))
    }

    /// The yuv420p picture and the encoder for this output size, made again only when it changes.
    private func preparedPicture(width: Int, height: Int) throws(MediaError) -> UnsafeMutablePointer<AVFrame> {
        if let picture, let encoder, Int(encoder.pointee.width) == width, Int(encoder.pointee.height) == height {
            return picture
        }
        releaseEncoder()
        guard let codec = cff_avcodec_find_encoder_by_name("mjpeg") else {
            throw MediaError(.missingCodec, .noEncoder(.mjpeg))
        }
        guard let context = cff_avcodec_alloc_context3(codec) else { throw MediaError(.failed, .noObject(function: "avcodec_alloc_context3")) }
        encoder = context
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        // yuv420p with the full (JPEG) range: the encoder's own convention, so no strictness override is needed.
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.time_base = AVRational(num: 1, den: 25)
        // Fixed quality, not a bitrate: a lone picture has no rate to control.
        context.pointee.flags |= CFF_AV_CODEC_FLAG_QSCALE
        try MediaError.check(cff_avcodec_open2(context, codec, nil), "avcodec_open2(mjpeg)")
        let made = try PixelConverter.makePicture(width: width, height: height)
        made.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        picture = made
        return made
    }

    private func encode(_ picture: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> [UInt8] {
        guard let encoder else { throw MediaError(.failed, .noPreviewEncoder) }
        picture.pointee.quality = 5 * CFF_FF_QP2LAMBDA
        picture.pointee.pts += 1
        try MediaError.check(cff_avcodec_send_frame(encoder, picture), "avcodec_send_frame(mjpeg)")
        defer { cff_av_packet_unref(packet) }
        try MediaError.check(cff_avcodec_receive_packet(encoder, packet), "avcodec_receive_packet(mjpeg)")
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    private func releaseEncoder() {
        if let picture { PixelConverter.freePicture(picture) }
        picture = nil
        var context = encoder
        if context != nil { cff_avcodec_free_context(&context) }
        encoder = nil
    }
}
