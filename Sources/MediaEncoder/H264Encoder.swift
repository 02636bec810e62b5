internal import CFFmpeg
import MediaValues

/// libx264 through libavcodec, configured from `EncoderSettings`.
final class H264Encoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let name = "libx264"
    private let packet: UnsafeMutablePointer<AVPacket>

    /// - Parameter timeBase: the time base of the pts handed to `encode`.
    init(width: Int, height: Int, frameRate: Double, timeBase: AVRational, settings: EncoderSettings,
         globalHeader: Bool) throws(MediaError) {
        guard let codec = cff_avcodec_find_encoder_by_name("libx264") else {
            throw MediaError(.missingCodec, .noEncoder(.libx264))
        }
        guard let context = cff_avcodec_alloc_context3(codec) else {
            throw MediaError(.failed, .noObject(function: "avcodec_alloc_context3"))
        }
        // No deinit runs for a half-built object: free what was allocated before the failure.
        guard let packet = cff_av_packet_alloc() else {
            var c: UnsafeMutablePointer<AVCodecContext>? = context
            cff_avcodec_free_context(&c)
            throw MediaError(.failed, .noObject(function: "av_packet_alloc"))
        }
        self.context = context
        self.packet = packet
        let fps = max(frameRate, 1)
        let gop = max(Int32((fps * settings.keyframeIntervalSeconds).rounded()), 1)
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = timeBase
        context.pointee.framerate = cff_av_d2q(fps, 100_000)
        context.pointee.gop_size = gop
        context.pointee.keyint_min = gop
        // No B-frames: decode order equals capture order, so each fragment is complete the moment
        // it is flushed, and timestamps from a camera that drops frames stay exact in the file
        // (with reordering, MP4 edit lists misstate the duration of such variable-rate streams).
        context.pointee.max_b_frames = 0
        if globalHeader { context.pointee.flags |= CFF_AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: [(String, String)] = [("preset", settings.preset),
                                           // A fixed GOP: scene cuts would add keyframes and make fragments irregular.
                                           ("x264-params", "scenecut=0")]
        if let kbps = settings.bitrateKbps {
            context.pointee.bit_rate = Int64(kbps) * 1000
        } else {
            options.append(("crf", String(settings.crf)))
        }
        // Measured at 1080p: huge pages cost 16 MB of resident memory and twice the system time
        // (zeroing 2 MiB pages) with no gain in encoding speed. The setting is process-wide, which
        // is fine for a single-purpose process like recorder. A kernel that refuses keeps them: only slower.
        _ = cff_disable_transparent_huge_pages()
        // An option libx264 refuses would otherwise be dropped silently and the shot encoded differently.
        var failure: (code: Int32, operation: String)?
        for (name, value) in options where failure == nil {
            let code = cff_av_opt_set(context.pointee.priv_data, name, value, 0)
            if code < 0 { failure = (code, "av_opt_set(\(name)=\(value))") }
        }
        if failure == nil {
            let code = cff_avcodec_open2(context, codec, nil)
            if code < 0 { failure = (code, "avcodec_open2(libx264)") }
        }
        // Fully initialised by now, so deinit frees the context and packet: freeing them here too
        // was a double free.
        if let failure { throw MediaError.from(failure.code, failure.operation) }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        cff_avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        cff_av_packet_free(&p)
    }

    /// Sends one picture (or nil to drain) and hands every packet that comes out to `sink`.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?, sink: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        try MediaError.check(cff_avcodec_send_frame(context, frame), "avcodec_send_frame")
        while true {
            let code = cff_avcodec_receive_packet(context, packet)
            if code == CFF_AVERROR_EAGAIN || code == CFF_AVERROR_EOF { return }
            try MediaError.check(code, "avcodec_receive_packet")
            defer { cff_av_packet_unref(packet) }
            try sink(packet)
        }
    }
}
