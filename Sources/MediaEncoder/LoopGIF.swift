internal import CFFmpeg
package import MediaValues

/// An animated GIF of a short clip (a boomerang's share page offers one on request): scaled down
/// to `width` (never up), at `frameRate`, its 256 colours chosen for this clip (libavfilter's `palettegen`,
/// then `paletteuse`, which only redraws what changed from one picture to the next), looping for
/// ever. Three seconds at 480 wide come to a megabyte or two.
package enum LoopGIF {
    package struct Outcome: Sendable, Hashable {
        package var frames: Int
        package var width: Int
        package var height: Int
    }

    /// Writes the GIF of `video` to `output`.
    package static func write(from video: String, to output: String, width: Int = 480, frameRate: Int = 15) throws(MediaError) -> Outcome {
        let graph = try FilterGraph("movie=\(FilterGraph.escaped(video)),fps=\(frameRate),scale=w='min(\(width),iw)':h=-2:flags=lanczos,split[a][b];"
            + "[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle[v];[v]buffersink")
        guard let frame = cff_av_frame_alloc() else { throw MediaError(.failed, .noObject(function: "av_frame_alloc")) }
        var f: UnsafeMutablePointer<AVFrame>? = frame
        defer { cff_av_frame_free(&f) }
        var file: GIFFile?
        var frames = 0
        while try graph.nextPicture(into: frame) {
            if file == nil {
                file = try GIFFile(path: output, width: frame.pointee.width, height: frame.pointee.height, frameRate: Int32(frameRate))
            }
            frame.pointee.pts = Int64(frames)
            try file?.encode(frame)
            frames += 1
        }
        guard let file else {
            throw MediaError(.badInput, .noDecodablePicture, path: video)
        }
        try file.encode(nil)
        try file.finish()
        return Outcome(frames: frames, width: Int(file.width), height: Int(file.height))
    }
}

/// libavformat's GIF muxer fed by libavcodec's GIF encoder (8-bit palette pictures).
private final class GIFFile {
    let width: Int32, height: Int32
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let packet: OwnedPacket
    private let path: String
    private var open = false

    init(path: String, width: Int32, height: Int32, frameRate: Int32) throws(MediaError) {
        (self.path, self.width, self.height) = (path, width, height)
        packet = try OwnedPacket()
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try MediaError.check(cff_avformat_alloc_output_context2(&ctx, nil, "gif", path), "avformat_alloc_output_context2(gif)", path: path)
        guard let ctx, let stream = cff_avformat_new_stream(ctx, nil) else {
            if let ctx { cff_avformat_free_context(ctx) }
            throw MediaError(.failed, .noObject(function: "avformat_new_stream"), path: path)
        }
        context = ctx
        self.stream = stream
        guard let encoder = cff_avcodec_find_encoder_by_name("gif") else {
            throw MediaError(.missingCodec, .noEncoder(.gif))
        }
        guard let codec = cff_avcodec_alloc_context3(encoder) else { throw MediaError(.failed, .noObject(function: "avcodec_alloc_context3")) }
        self.codec = codec
        codec.pointee.width = width
        codec.pointee.height = height
        codec.pointee.pix_fmt = AV_PIX_FMT_PAL8
        codec.pointee.time_base = AVRational(num: 1, den: frameRate)
        try MediaError.check(cff_avcodec_open2(codec, encoder, nil), "avcodec_open2(gif)")
        try MediaError.check(cff_avcodec_parameters_from_context(stream.pointee.codecpar, codec), "avcodec_parameters_from_context")
        stream.pointee.time_base = codec.pointee.time_base
        try MediaError.check(cff_avio_open(&ctx.pointee.pb, path, CFF_AVIO_FLAG_WRITE), "avio_open", path: path)
        open = true
        try MediaError.check(cff_avformat_write_header(ctx, nil), "avformat_write_header", path: path)
    }

    deinit {
        cff_avcodec_free_context(&codec)
        if let context {
            if open { _ = cff_avio_closep(&context.pointee.pb) }
            cff_avformat_free_context(context)
        }
    }

    /// One picture (nil: the encoder's last packets) into the file.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MediaError) {
        guard let codec, let context else { return }
        try MediaError.check(cff_avcodec_send_frame(codec, frame), "avcodec_send_frame(gif)")
        while true {
            let code = cff_avcodec_receive_packet(codec, packet.pointer)
            if code == CFF_AVERROR_EAGAIN || code == CFF_AVERROR_EOF { return }
            try MediaError.check(code, "avcodec_receive_packet(gif)")
            cff_av_packet_rescale_ts(packet.pointer, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            let written = cff_av_interleaved_write_frame(context, packet.pointer)
            cff_av_packet_unref(packet.pointer)
            try MediaError.check(written, "av_interleaved_write_frame", path: path)
        }
    }

    func finish() throws(MediaError) {
        guard let context else { return }
        try MediaError.check(cff_av_write_trailer(context), "av_write_trailer", path: path)
        open = false
        try MediaError.check(cff_avio_closep(&context.pointee.pb), "avio_closep", path: path)
    }
}
