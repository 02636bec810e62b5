internal import CFFmpeg

/// Decodes the JPEG pictures MJPEG cameras send, one whole picture per buffer.
final class MJPEGDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        guard let codec = cff_avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(.missingCodec, operation: "avcodec_find_decoder", detail: "This FFmpeg build has no MJPEG decoder.")
        }
        // No deinit runs for a half-built object: free what was allocated before a failure.
        var c: UnsafeMutablePointer<AVCodecContext>? = cff_avcodec_alloc_context3(codec)
        var p: UnsafeMutablePointer<AVPacket>? = c == nil ? nil : cff_av_packet_alloc()
        var f: UnsafeMutablePointer<AVFrame>? = p == nil ? nil : cff_av_frame_alloc()
        guard let context = c, let packet = p, let frame = f else {
            cff_av_frame_free(&f)
            cff_av_packet_free(&p)
            cff_avcodec_free_context(&c)
            throw MediaError(.failed, operation: "avcodec_alloc_context3")
        }
        self.context = context
        self.packet = packet
        self.frame = frame
        // Fully initialised from here on: deinit frees all three if opening fails.
        try MediaError.check(cff_avcodec_open2(context, codec, nil), "avcodec_open2(mjpeg)")
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        cff_avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        cff_av_packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        cff_av_frame_free(&f)
    }

    /// Decodes one JPEG; returns nil when the camera sent a damaged picture, so the caller can
    /// count it as dropped instead of failing the shot.
    func decode(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutablePointer<AVFrame>? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        // Not reference-counted: libavcodec copies the data before returning.
        packet.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointee.size = Int32(bytes.count)
        defer {
            packet.pointee.data = nil
            packet.pointee.size = 0
        }
        guard cff_avcodec_send_packet(context, packet) >= 0 else { return nil }
        cff_av_frame_unref(frame)
        guard cff_avcodec_receive_frame(context, frame) >= 0 else { return nil }
        return frame
    }
}
