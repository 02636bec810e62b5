internal import CFFmpeg
package import MediaValues

/// A posted video's poster: the picture about a second in (the middle of a shorter clip), as a
/// JPEG at most `maximumWidth` wide, for the gallery's grid and the share page. The video is
/// decoded from its start up to that picture with one decoder thread: a second of a small clip.
package enum PosterFrame {
    package static func jpeg(ofVideoAt path: String, seconds: Double = 1, maximumWidth: Int = 640) throws(MediaError) -> [UInt8] {
        let input = try MediaInput(path: path)
        let stream = input.videoStream
        let timeBase = stream.pointee.time_base
        let length = stream.pointee.duration > 0 ? Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den) : seconds * 2
        let target = min(seconds, length / 2)
        let decoder = try decoder(for: stream)
        let snapshot = try JPEGSnapshot(maximumWidth: maximumWidth)
        var first: [UInt8]?
        var ended = false
        while true {
            let received = cff_avcodec_receive_frame(decoder.context, decoder.frame)
            if received >= 0 {
                let pts = decoder.frame.pointee.best_effort_timestamp
                let time = pts == CFF_AV_NOPTS_VALUE ? 0 : Double(pts) * Double(timeBase.num) / Double(timeBase.den)
                if time + 0.001 >= target { return try snapshot.jpeg(of: decoder.frame) }
                // A picture from before the target, kept in case the clip ends before it.
                if first == nil { first = try snapshot.jpeg(of: decoder.frame) }
                continue
            }
            guard received == CFF_AVERROR_EAGAIN, !ended else { break }
            if cff_av_read_frame(input.context, decoder.packet) < 0 {
                ended = true
                // (the drain's start; refused, the decoder has no more frames, which ends the loop)
                _ = cff_avcodec_send_packet(decoder.context, nil)
                continue
            }
            if decoder.packet.pointee.stream_index == stream.pointee.index {
                // (a packet the decoder refuses is one picture fewer to choose from, not a failure)
                _ = cff_avcodec_send_packet(decoder.context, decoder.packet)
            }
            cff_av_packet_unref(decoder.packet)
        }
        guard let first else {
            throw MediaError(.badInput, .noDecodablePicture, path: path)
        }
        return first
    }

    /// The stream's decoder (one thread), opened.
    private static func decoder(for stream: UnsafeMutablePointer<AVStream>) throws(MediaError) -> DecoderContext {
        guard let parameters = stream.pointee.codecpar, let codec = cff_avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError(.missingCodec, .noDecoder(.video))
        }
        let decoder = try DecoderContext(codec)
        try MediaError.check(cff_avcodec_parameters_to_context(decoder.context, parameters), "avcodec_parameters_to_context")
        // One thread: a frame-threaded decoder holds a picture per thread for a poster's few frames.
        decoder.context.pointee.thread_count = 1
        try MediaError.check(cff_avcodec_open2(decoder.context, codec, nil), "avcodec_open2(decoder)")
        return decoder
    }
}
