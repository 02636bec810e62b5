internal import CFFmpeg
package import MediaValues

/// Facts about a finished video file, read back with libavformat.
package struct MediaInfo: Sendable, Hashable, Codable {
    package var width: Int
    package var height: Int
    package var durationSeconds: Double
    package var frameRate: Double
    package var frameCount: Int
    package var codec: String
    package var container: String
}

package enum MediaProbe {
    /// Reads size, duration, rate, codec and the number of video packets of `path`.
    package static func inspect(_ path: String) throws(MediaError) -> MediaInfo {
        let input = try MediaInput(path: path)
        let stream = input.videoStream
        let par = stream.pointee.codecpar.pointee
        var frames = 0
        guard let packet = cff_av_packet_alloc() else { throw MediaError(.failed, .noObject(function: "av_packet_alloc")) }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { cff_av_packet_free(&p) }
        while cff_av_read_frame(input.context, packet) >= 0 {
            if packet.pointee.stream_index == stream.pointee.index { frames += 1 }
            cff_av_packet_unref(packet)
        }
        let duration = input.context.pointee.duration > 0
            ? Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
            : Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        let rate = stream.pointee.avg_frame_rate.den > 0 ? av_q2d(stream.pointee.avg_frame_rate) : 0
        return MediaInfo(width: Int(par.width), height: Int(par.height), durationSeconds: duration, frameRate: rate,
                         frameCount: frames, codec: String(cString: cff_avcodec_get_name(par.codec_id)),
                         container: String(cString: input.context.pointee.iformat.pointee.name))
    }
}
