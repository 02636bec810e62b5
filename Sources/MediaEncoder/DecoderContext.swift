internal import CFFmpeg
import MediaValues

/// A decoder's codec context with the packet and picture it works with: allocated together, freed
/// together (a half-made one frees what it had), opened by its owner.
final class DecoderContext {
    let context: UnsafeMutablePointer<AVCodecContext>
    let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>

    init(_ codec: UnsafePointer<AVCodec>) throws(MediaError) {
        // No deinit runs for a half-built object: free what was allocated before a failure.
        var c: UnsafeMutablePointer<AVCodecContext>? = cff_avcodec_alloc_context3(codec)
        var p: UnsafeMutablePointer<AVPacket>? = c == nil ? nil : cff_av_packet_alloc()
        var f: UnsafeMutablePointer<AVFrame>? = p == nil ? nil : cff_av_frame_alloc()
        guard let context = c, let packet = p, let frame = f else {
            cff_av_frame_free(&f)
            cff_av_packet_free(&p)
            cff_avcodec_free_context(&c)
            throw MediaError(.failed, .noObject(function: "avcodec_alloc_context3"))
        }
        (self.context, self.packet, self.frame) = (context, packet, frame)
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        cff_avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        cff_av_packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        cff_av_frame_free(&f)
    }
}
