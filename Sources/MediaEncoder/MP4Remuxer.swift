internal import CFFmpeg
package import MediaValues

/// Rewrites the crash-safe fragmented recording as a plain MP4 with its index first (faststart),
/// copying packets without re-encoding: the picture and, when there is one, the sound.
package enum MP4Remuxer {
    /// - Parameter endSeconds: when the recording covers a known span (a shot that ran its full
    ///   length), the time from the first picture to its end: the last picture stays on screen until
    ///   then. Without it, the last picture lasts as long as the interval before it.
    package static func faststart(from source: String, to destination: String, endSeconds: Double? = nil) throws(MediaError) {
        let input = try MediaInput(path: source)
        let writer = try MP4Writer(path: destination, fragmented: false)
        let video = input.videoStream
        try writer.configure(from: video.pointee.codecpar, timeBase: video.pointee.time_base)
        var tracks = [Track(input: video, output: writer.stream, isVideo: true)]
        if let audio = input.audioStream {
            tracks.append(Track(input: audio, output: try writer.addStream(from: audio.pointee.codecpar, timeBase: audio.pointee.time_base),
                                isVideo: false))
        }
        try writer.writeHeader()
        // A fragmented file cannot carry an edit list, so the writer put the sound's AAC priming
        // (1024 samples, before the first picture) at 0 and the sound after it 1024 samples late
        // (see `MP4Writer.addAudio`). Moving the sound back by the priming puts it where it was
        // captured against the picture and the priming before 0, which this muxer trims with an
        // edit list: the first word is not early. The picture starts at 0 as it is.
        let packetOwner = try OwnedPacket()
        let packet = packetOwner.pointer
        defer { withExtendedLifetime(packetOwner) {} }
        for track in tracks where !track.isVideo && track.input.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_AAC {
            let priming = Int64(max(track.input.pointee.codecpar.pointee.initial_padding, 1024))
            let rate = track.input.pointee.codecpar.pointee.sample_rate
            if rate > 0 { track.shift = cff_av_rescale_q(priming, AVRational(num: 1, den: rate), track.input.pointee.time_base) }
        }
        let videoStart = video.pointee.start_time == CFF_AV_NOPTS_VALUE ? 0 : video.pointee.start_time
        tracks[0].shift = videoStart
        do {
            while true {
                let code = cff_av_read_frame(input.context, packet)
                if code == CFF_AVERROR_EOF { break }
                try MediaError.check(code, "av_read_frame", path: source)
                // A sample the file ends inside (a power cut mid-fragment) is read short and marked
                // corrupt by the demuxer: copied, it would be a picture that never decodes.
                guard packet.pointee.flags & CFF_AV_PKT_FLAG_CORRUPT == 0,
                      let track = tracks.first(where: { $0.input.pointee.index == packet.pointee.stream_index }) else {
                    cff_av_packet_unref(packet)
                    continue
                }
                try track.take(packet, writer: writer)
            }
            for track in tracks {
                // A shot of 3 s whose camera dropped its last frames (or fell behind) still covers
                // 3 s: the last picture is what the camera showed until the end.
                // The sound's last AAC frame is padded to 1024 samples: it is cut at the same end.
                try track.flush(writer: writer, endSeconds: endSeconds)
            }
        } catch {
            for track in tracks { track.discard() }
            throw error
        }
        try writer.finish()
    }

    /// One stream being copied. The demuxer gives fragmented samples no duration: a sample lasts
    /// until the next one of its stream starts, so each packet is held back until its successor is
    /// read; the last one gets the interval before it. (Giving a packet the interval *before* it
    /// made the sample after a camera's dropped-frame gap end past the file's end, and the movie's
    /// duration with it.)
    private final class Track {
        let input: UnsafeMutablePointer<AVStream>
        let output: UnsafeMutablePointer<AVStream>
        let isVideo: Bool
        var shift: Int64 = 0
        private let pendingOwner: OwnedPacket?
        private var holding = false
        private var lastInterval: Int64

        init(input: UnsafeMutablePointer<AVStream>, output: UnsafeMutablePointer<AVStream>, isVideo: Bool) {
            self.input = input
            self.output = output
            self.isVideo = isVideo
            pendingOwner = try? OwnedPacket()
            lastInterval = isVideo ? MP4Remuxer.frameInterval(input) : 0
        }

        func take(_ packet: UnsafeMutablePointer<AVPacket>, writer: MP4Writer) throws(MediaError) {
            guard let pending = pendingOwner?.pointer else {
                cff_av_packet_unref(packet)
                throw MediaError(.failed, .noObject(function: "av_packet_alloc"))
            }
            packet.pointee.pts -= shift
            packet.pointee.dts -= shift
            if holding {
                let interval = packet.pointee.dts - pending.pointee.dts
                if interval > 0 { lastInterval = interval }
                do { try write(pending, duration: lastInterval, writer: writer) } catch {
                    cff_av_packet_unref(packet)
                    throw error
                }
            }
            cff_av_packet_move_ref(pending, packet)
            holding = true
        }

        func flush(writer: MP4Writer, endSeconds: Double?) throws(MediaError) {
            guard holding, let pending = pendingOwner?.pointer else { return }
            var last = lastInterval
            let base = input.pointee.time_base
            if let endSeconds, base.num > 0 {
                let end = Int64((endSeconds * Double(base.den) / Double(base.num)).rounded())
                // The picture lasts until the end; the sound only ever ends earlier than its frame.
                if end > pending.pointee.pts && (isVideo || end - pending.pointee.pts < last) {
                    last = end - pending.pointee.pts
                    pending.pointee.duration = last
                }
            }
            holding = false
            try write(pending, duration: last, writer: writer)
        }

        func discard() {
            if holding, let pending = pendingOwner?.pointer { cff_av_packet_unref(pending) }
            holding = false
        }

        private func write(_ held: UnsafeMutablePointer<AVPacket>, duration: Int64, writer: MP4Writer) throws(MediaError) {
            if held.pointee.duration <= 0 { held.pointee.duration = duration }
            cff_av_packet_rescale_ts(held, input.pointee.time_base, output.pointee.time_base)
            defer { cff_av_packet_unref(held) }
            try writer.write(held, to: output)
        }
    }

    /// One frame at the stream's average rate, in its time base: the duration of a lone sample.
    fileprivate static func frameInterval(_ stream: UnsafeMutablePointer<AVStream>) -> Int64 {
        let rate = stream.pointee.avg_frame_rate, base = stream.pointee.time_base
        guard rate.num > 0, rate.den > 0, base.num > 0, base.den > 0 else { return 0 }
        return Int64((Double(base.den) * Double(rate.den) / (Double(base.num) * Double(rate.num))).rounded())
    }
}
