internal import CFFmpeg
import Glibc
package import MediaValues

/// A shot with a clip before and/or after it (`recorder post --intro/--outro`): a still picture or
/// a short MP4 made into the shot's own format, then joined to it.
///
/// The bookends are encoded with the shot's size, frame rate, clock, x264 settings and sound
/// format; when libx264 and the AAC encoder then write the same stream headers as they did for the
/// shot, the three files are copied one after another into one (the guest's take is not encoded
/// again: no loss, and only the bookends cost encoding time). When a header differs (a camera's own
/// H.264, an odd frame rate, settings changed since the shot), the whole is encoded once to the
/// shot's settings instead, and the outcome says why.
package enum ClipJoiner {
    /// A clip to put before or after the shot.
    package enum Bookend: Sendable, Hashable {
        /// A PNG or JPEG shown for `seconds`, with silence.
        case still(path: String, seconds: Double)
        /// An MP4 (or MOV) clip, with its sound.
        case clip(path: String)

        package var path: String {
            switch self {
            case .still(let path, _), .clip(let path): path
            }
        }
    }

    /// Writes `intro` + the shot at `take` + `outro` to `output`. `scratch` is a private directory
    /// for the bookends made in the shot's format (and the cards' text files of `ReelWriter`).
    /// Returns why the take was encoded again, or nil when it was copied as recorded.
    @discardableResult
    package static func join(intro: Bookend?, take: String, outro: Bookend?, to output: String,
                             settings: EncoderSettings, scratch: String) throws(MediaError) -> Mismatch? {
        let shape = try Shape(path: take)
        // Each bookend made in the shot's format, in the scratch directory.
        func made(_ bookend: Bookend, _ name: String) throws(MediaError) -> String {
            let path = "\(scratch)/\(name).mp4"
            let writer = try ReelWriter(path: path, format: shape.format, settings: settings, scratch: scratch)
            switch bookend {
            case .still(let image, let seconds): try writer.appendStill(image, seconds: seconds)
            case .clip(let clip): try writer.appendClip(clip, gain: 0)
            }
            try writer.finish()
            return path
        }
        let introFile = try intro.map { bookend throws(MediaError) in try made(bookend, "intro") }
        let outroFile = try outro.map { bookend throws(MediaError) in try made(bookend, "outro") }
        let parts = [introFile, take, outroFile].compactMap { $0 }
        var reason: Mismatch?
        for bookend in [introFile, outroFile].compactMap({ $0 }) where reason == nil {
            reason = shape.difference(from: try Shape(path: bookend))
        }
        if reason == nil {
            try concatenate(parts, to: output)
            return nil
        }
        // One encode of the whole, in the shot's format.
        let writer = try ReelWriter(path: output, format: shape.format, settings: settings, scratch: scratch)
        for part in parts { try writer.appendClip(part, gain: 0) }
        try writer.finish()
        return reason
    }

    /// The stream headers and format of a file, for telling whether packets can be copied across.
    struct Shape {
        var format: ReelWriter.Format
        var videoCodec: AVCodecID
        var videoHeader: [UInt8]
        var frameRate: AVRational
        var audio: (codec: AVCodecID, rate: Int32, channels: Int32, header: [UInt8])?

        init(path: String) throws(MediaError) {
            let input = try MediaInput(path: path)
            let video = input.videoStream.pointee.codecpar.pointee
            guard video.width >= 16, video.height >= 16 else {
                throw MediaError(.badInput, .pictureTooSmall(width: Int(video.width), height: Int(video.height)), path: path)
            }
            videoCodec = video.codec_id
            videoHeader = Self.bytes(video.extradata, video.extradata_size)
            frameRate = input.videoStream.pointee.avg_frame_rate
            let rate = frameRate.num > 0 && frameRate.den > 0 ? av_q2d(frameRate) : 30
            let base = input.videoStream.pointee.time_base
            var format = ReelWriter.Format(width: Int(video.width) & ~1, height: Int(video.height) & ~1,
                                           frameRate: min(max(Int(rate.rounded()), 1), 120), channels: 0,
                                           clock: base.num == 1 && base.den >= 1000 ? base.den : nil)
            if let stream = input.audioStream {
                let sound = stream.pointee.codecpar.pointee
                audio = (sound.codec_id, sound.sample_rate, sound.ch_layout.nb_channels, Self.bytes(sound.extradata, sound.extradata_size))
                format.sampleRate = Int(sound.sample_rate)
                format.channels = Int(min(max(sound.ch_layout.nb_channels, 1), 2))
            } else {
                audio = nil
            }
            self.format = format
        }

        /// Why packets of `other` cannot follow this file's, or nil when they can.
        func difference(from other: Shape) -> Mismatch? {
            guard videoCodec == AV_CODEC_ID_H264, other.videoCodec == videoCodec else { return .notH264 }
            guard other.format.width == format.width, other.format.height == format.height else { return .pictureSizes }
            // (a camera's own H.264, or the encoder's settings changed since the shot)
            guard other.videoHeader == videoHeader else { return .h264Header }
            switch (audio, other.audio) {
            case (nil, nil): return nil
            case let (mine?, theirs?) where mine.codec == theirs.codec && mine.rate == theirs.rate
                && mine.channels == theirs.channels && mine.header == theirs.header:
                return nil
            default: return .soundFormats
            }
        }

        private static func bytes(_ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> [UInt8] {
            guard let pointer, count > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
        }
    }

    /// Copies the packets of `paths` one file after another (all of one shape) into `output`.
    /// Each file's pictures start where the previous file's end; its sound starts with its
    /// pictures. The first file's AAC priming is trimmed by an edit list as in any shot; a later
    /// file's priming packet is left out (the one before it decodes into its place), so the sound
    /// runs on without a gap and each file's sound stays where it was against its pictures.
    static func concatenate(_ paths: [String], to output: String) throws(MediaError) {
        let first = try MediaInput(path: paths[0])
        let writer = try MP4Writer(path: output, fragmented: false)
        try writer.configure(from: first.videoStream.pointee.codecpar, timeBase: first.videoStream.pointee.time_base)
        let soundOut = try first.audioStream.map { stream throws(MediaError) in
            try writer.addStream(from: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        }
        try writer.writeHeader()
        let pictureOut = writer.stream
        let packetOwner = try OwnedPacket()
        let packet = packetOwner.pointer
        defer { withExtendedLifetime(packetOwner) {} }
        // Where the next file starts, in the output's picture time base.
        var offset: Int64 = 0
        var lastSound = Int64.min
        do {
            for (index, path) in paths.enumerated() {
                let input = index == 0 ? first : try MediaInput(path: path)
                let video = input.videoStream
                let start = video.pointee.start_time == CFF_AV_NOPTS_VALUE ? 0 : video.pointee.start_time
                var end = offset
                while true {
                    let code = cff_av_read_frame(input.context, packet)
                    if code == CFF_AVERROR_EOF { break }
                    try MediaError.check(code, "av_read_frame", path: path)
                    defer { cff_av_packet_unref(packet) }
                    if packet.pointee.stream_index == video.pointee.index {
                        let from = video.pointee.time_base, to = pictureOut.pointee.time_base
                        let pts = cff_av_rescale_q(packet.pointee.pts - start, from, to) + offset
                        let duration = cff_av_rescale_q(packet.pointee.duration, from, to)
                        packet.pointee.pts = pts
                        packet.pointee.dts = cff_av_rescale_q(packet.pointee.dts - start, from, to) + offset
                        packet.pointee.duration = duration
                        end = max(end, pts + duration)
                        try writer.write(packet, to: pictureOut)
                    } else if let sound = input.audioStream, let soundOut, packet.pointee.stream_index == sound.pointee.index {
                        let from = sound.pointee.time_base, to = soundOut.pointee.time_base
                        let relative = packet.pointee.pts - cff_av_rescale_q(start, video.pointee.time_base, from)
                        if index > 0 && relative < 0 { continue }
                        let pts = cff_av_rescale_q(relative, from, to) + cff_av_rescale_q(offset, pictureOut.pointee.time_base, to)
                        // (a packet that would not follow the one before: never written out of order)
                        guard pts > lastSound else { continue }
                        lastSound = pts
                        packet.pointee.pts = pts
                        packet.pointee.dts = pts
                        packet.pointee.duration = cff_av_rescale_q(packet.pointee.duration, from, to)
                        try writer.write(packet, to: soundOut)
                    }
                }
                offset = end
            }
        } catch {
            writer.abandon()
            throw error
        }
        try writer.finish()
    }
}

extension ClipJoiner {
    /// Why a bookend's packets cannot follow the take's, so the whole is encoded again.
    package enum Mismatch: Sendable, Hashable {
        /// The shot's picture is not H.264.
        case notH264
        /// The bookend's picture size is not the shot's.
        case pictureSizes
        /// The shot's H.264 header is not libx264's at the current settings (a camera's own H.264,
        /// or the preset, CRF or bit rate changed since the shot).
        case h264Header
        /// The sound's codec, rate, channels or header differ.
        case soundFormats
    }
}
