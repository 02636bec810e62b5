import CFFmpeg

/// Rewrites the crash-safe fragmented recording as a plain MP4 with its index first (faststart),
/// copying packets without re-encoding.
public enum MP4Remuxer {
    public static func faststart(from source: String, to destination: String) throws(MediaError) {
        let input = try MediaInput(path: source)
        let writer = try MP4Writer(path: destination, fragmented: false)
        let stream = input.videoStream
        try writer.configure(from: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        try writer.writeHeader()
        guard let packet = av_packet_alloc() else { throw MediaError(.failed, operation: "av_packet_alloc") }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&p) }
        while true {
            let code = av_read_frame(input.context, packet)
            if code == CFF_AVERROR_EOF { break }
            try MediaError.check(code, "av_read_frame", path: source)
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            av_packet_rescale_ts(packet, stream.pointee.time_base, writer.timeBase)
            try writer.write(packet)
        }
        try writer.finish()
    }
}
