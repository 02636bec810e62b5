internal import CFFmpeg
import MediaValues

/// Decodes the JPEG pictures MJPEG cameras send, one whole picture per buffer.
final class MJPEGDecoder {
    private let decoder: DecoderContext
    private var context: UnsafeMutablePointer<AVCodecContext> { decoder.context }
    private var packet: UnsafeMutablePointer<AVPacket> { decoder.packet }
    var frame: UnsafeMutablePointer<AVFrame> { decoder.frame }

    init() throws(MediaError) {
        guard let codec = cff_avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(.missingCodec, .noDecoder(.mjpeg))
        }
        decoder = try DecoderContext(codec)
        try MediaError.check(cff_avcodec_open2(decoder.context, codec, nil), "avcodec_open2(mjpeg)")
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
