internal import CFFmpeg

/// Rewrites the crash-safe fragmented recording as a plain MP4 with its index first (faststart),
/// copying packets without re-encoding.
package enum MP4Remuxer {
    /// - Parameter endSeconds: when the recording covers a known span (a shot that ran its full
    ///   length), the time from the first picture to its end: the last picture stays on screen until
    ///   then. Without it, the last picture lasts as long as the interval before it.
    package static func faststart(from source: String, to destination: String, endSeconds: Double? = nil) throws(MediaError) {
        let input = try MediaInput(path: source)
        let writer = try MP4Writer(path: destination, fragmented: false)
        let stream = input.videoStream
        try writer.configure(from: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        try writer.writeHeader()
        // Owned, so the first is freed when the second cannot be allocated.
        let packetOwner = try OwnedPacket(), pendingOwner = try OwnedPacket()
        let packet = packetOwner.pointer, pending = pendingOwner.pointer
        defer { withExtendedLifetime((packetOwner, pendingOwner)) {} }
        // A fragmented file cannot carry an edit list, so its muxer shifted the B-frame delay into
        // the timestamps; shifting back makes the first picture start at 0 and lets this muxer
        // write the edit list instead.
        let start = stream.pointee.start_time == CFF_AV_NOPTS_VALUE ? 0 : stream.pointee.start_time
        // The demuxer gives fragmented samples no duration. A sample lasts until the next one
        // starts, so each packet is held back until its successor is read; the last one gets the
        // interval before it. (Giving a packet the interval *before* it made the sample after a
        // camera's dropped-frame gap end past the file's end, and the movie's duration with it.)
        var holding = false
        var lastInterval = frameInterval(stream)
        func write(_ held: UnsafeMutablePointer<AVPacket>, duration: Int64) throws(MediaError) {
            if held.pointee.duration <= 0 { held.pointee.duration = duration }
            cff_av_packet_rescale_ts(held, stream.pointee.time_base, writer.timeBase)
            defer { cff_av_packet_unref(held) }
            try writer.write(held)
        }
        while true {
            let code = cff_av_read_frame(input.context, packet)
            if code == CFF_AVERROR_EOF { break }
            try MediaError.check(code, "av_read_frame", path: source)
            guard packet.pointee.stream_index == stream.pointee.index else {
                cff_av_packet_unref(packet)
                continue
            }
            packet.pointee.pts -= start
            packet.pointee.dts -= start
            if holding {
                let interval = packet.pointee.dts - pending.pointee.dts
                if interval > 0 { lastInterval = interval }
                do { try write(pending, duration: lastInterval) } catch {
                    cff_av_packet_unref(packet)
                    throw error
                }
            }
            cff_av_packet_move_ref(pending, packet)
            holding = true
        }
        if holding {
            // A shot of 3 s whose camera dropped its last frames (or fell behind) still covers
            // 3 s: the last picture is what the camera showed until the end.
            var last = lastInterval
            let base = stream.pointee.time_base
            if let endSeconds, base.num > 0 {
                let end = Int64((endSeconds * Double(base.den) / Double(base.num)).rounded())
                if end > pending.pointee.pts { last = end - pending.pointee.pts }
            }
            try write(pending, duration: last)
        }
        try writer.finish()
    }

    /// One frame at the stream's average rate, in its time base: the duration of a lone sample.
    private static func frameInterval(_ stream: UnsafeMutablePointer<AVStream>) -> Int64 {
        let rate = stream.pointee.avg_frame_rate, base = stream.pointee.time_base
        guard rate.num > 0, rate.den > 0, base.num > 0, base.den > 0 else { return 0 }
        return Int64((Double(base.den) * Double(rate.den) / (Double(base.num) * Double(rate.num))).rounded())
    }
}
