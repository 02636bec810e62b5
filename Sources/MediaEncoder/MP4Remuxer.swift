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
        guard let packet = cff_av_packet_alloc() else { throw MediaError(.failed, operation: "av_packet_alloc") }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { cff_av_packet_free(&p) }
        // A fragmented file cannot carry an edit list, so its muxer shifted the B-frame delay into
        // the timestamps; shifting back makes the first picture start at 0 and lets this muxer
        // write the edit list instead.
        let start = stream.pointee.start_time == CFF_AV_NOPTS_VALUE ? 0 : stream.pointee.start_time
        var lastDuration: Int64 = 0
        var lastDts: Int64?
        while true {
            let code = cff_av_read_frame(input.context, packet)
            if code == CFF_AVERROR_EOF { break }
            try MediaError.check(code, "av_read_frame", path: source)
            defer { cff_av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            packet.pointee.pts -= start
            packet.pointee.dts -= start
            // The demuxer leaves the last sample's duration out; without it the file ends a frame short.
            if let previous = lastDts, packet.pointee.dts > previous { lastDuration = packet.pointee.dts - previous }
            lastDts = packet.pointee.dts
            if packet.pointee.duration <= 0 { packet.pointee.duration = lastDuration }
            cff_av_packet_rescale_ts(packet, stream.pointee.time_base, writer.timeBase)
            try writer.write(packet)
        }
        try writer.finish()
    }
}
