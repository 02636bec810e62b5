internal import CFFmpeg
import SystemSupport
package import MediaValues

/// A boomerang (`shoot.effect = boomerang`): a short take played forward then backward, the pair
/// looped to at least `minimumSeconds` (Instagram refuses shorter clips) and at most
/// `loopSeconds`, silent or with a chosen sound.
///
/// Only the way back is encoded. One cycle is the take's pictures f0...fn, then fn-1...f1 (so
/// picture k equals picture 2n-k, and the next cycle's f0 follows f1 without a jump); each cycle
/// starts with the take's own keyframe, so later cycles are the first one's packets again with
/// later timestamps. Where libx264 at the shot's settings writes the take's own stream header (a
/// shot recorded by recorder), the take's packets are the way forward as recorded; otherwise (a
/// camera's own H.264) the way forward is encoded too. The way back is decoded one keyframe
/// interval at a time from the end, so at most one second of pictures is held decoded.
///
/// The take's pictures already carry the branding frame (`PictureOverlay` blends it before
/// encoding), and a picture is never mirrored, only shown in another order: the frame stays on
/// every picture, the right way round.
package enum Boomerang {
    package struct Outcome: Sendable, Hashable {
        /// The take's pictures (the way forward).
        package var takeFrames: Int
        /// One forward-and-back cycle's pictures: twice the take's, less two.
        package var cycleFrames: Int
        /// Pictures in the boomerang, and its length.
        package var frames: Int
        package var seconds: Double
        package var frameRate: Double
        /// The way forward is the take's packets as recorded (only the way back was encoded).
        package var copiedForward: Bool
    }

    /// The shortest boomerang: shorter clips are refused by some sharing sites.
    package static let minimumSeconds = 3.0

    /// Makes the boomerang of `take` at `output` (faststart MP4), encoded with `settings` (its
    /// branding frame is not blended again: the take has it). `sound`: a sound file (any format
    /// libavformat reads) under the pictures from its start; nil for none. `frameRate`: the rate
    /// the take was recorded at (nil: its average), which its stream header was made with.
    package static func render(take: String, to output: String, settings: EncoderSettings, loopSeconds: Double,
                               sound: String? = nil, frameRate: Double? = nil) throws(MediaError) -> Outcome {
        let input = try MediaInput(path: take)
        let stream = input.videoStream
        let parameters = stream.pointee.codecpar.pointee
        guard parameters.width >= 16, parameters.height >= 16, parameters.width % 2 == 0, parameters.height % 2 == 0 else {
            throw MediaError(.badInput, .sizeNotEncodable(width: Int(parameters.width), height: Int(parameters.height)), path: take)
        }
        let packets = try videoPackets(input)
        guard packets.count >= 3 else {
            throw MediaError(.badInput, .boomerangTooShort(pictures: packets.count), path: take)
        }
        let average = stream.pointee.avg_frame_rate.num > 0 && stream.pointee.avg_frame_rate.den > 0 ? av_q2d(stream.pointee.avg_frame_rate) : 30
        let rate = frameRate.flatMap { $0 > 0 ? $0 : nil } ?? average
        let clock = AVRational(num: 1, den: 90_000)
        let tick = max(Int64((90_000 / rate).rounded()), 1)
        var plain = settings
        plain.overlay = nil
        let writer = try MP4Writer(path: output, fragmented: false)
        do {
            let encoder = try H264Encoder(width: Int(parameters.width), height: Int(parameters.height), frameRate: rate,
                                          timeBase: clock, settings: plain, globalHeader: writer.wantsGlobalHeader)
            // The take's packets go out as they are when the encoder's header is the take's (an
            // MP4's, with 4-byte lengths) and no picture is reordered (decode order is the order shown).
            let header = bytes(parameters.extradata, parameters.extradata_size)
            let copyForward = parameters.codec_id == AV_CODEC_ID_H264 && header.count > 4 && header[0] == 1 && header[4] & 3 == 3
                && !H264Bitstream.parameterSetUnits(header).isEmpty
                && H264Bitstream.parameterSetUnits(header)
                    == H264Bitstream.parameterSetUnits(bytes(encoder.context.pointee.extradata, encoder.context.pointee.extradata_size))
                && packets.allSatisfy { $0.pointer.pointee.pts == $0.pointer.pointee.dts }
            if copyForward {
                // (the take's header and form: the encoder's packets are given it below)
                try writer.configure(from: stream.pointee.codecpar, timeBase: clock)
            } else {
                try writer.configure(from: encoder.context)
            }
            let cycle = try Cycle(packets: packets, stream: stream, encoder: encoder, tick: tick, copyForward: copyForward)
            let minimumFrames = Int((minimumSeconds * rate).rounded(.up))
            let mostFrames = max(Int((max(loopSeconds, minimumSeconds) * rate).rounded(.down)), minimumFrames)
            let cycles = max(Int((Double(mostFrames) / Double(cycle.frames)).rounded(.down)), 1)
            let frames = min(max(cycles * cycle.frames, minimumFrames), mostFrames)
            let seconds = Double(frames) * Double(tick) / 90_000
            let music = try sound.map { path throws(MediaError) in
                try GraphSound(chain: "amovie=\(FilterGraph.escaped(path)),atrim=duration=\(String(cFormat: "%.6f", seconds)),asetpts=PTS-STARTPTS"
                                   + GraphSound.ending(sampleRate: 48_000, channels: 2),
                               sampleRate: 48_000, channels: 2, bitRate: settings.audioBitRate, writer: writer, endSeconds: seconds)
            }
            try writer.writeHeader()
            let out = try OwnedPacket()
            var written = 0
            while written < frames {
                let offset = Int64(written) * tick
                for packet in cycle.packets {
                    let at = packet.pointer.pointee.pts + offset
                    guard at < Int64(frames) * tick else { break }
                    try MediaError.check(cff_av_packet_ref(out.pointer, packet.pointer), "av_packet_ref")
                    out.pointer.pointee.pts = at
                    out.pointer.pointee.dts = at
                    out.pointer.pointee.duration = tick
                    defer { cff_av_packet_unref(out.pointer) }
                    try music?.write(until: cff_av_rescale_q(at + tick, clock, AVRational(num: 1, den: 1_000_000)))
                    try writer.write(out.pointer, from: clock, defaultDuration: tick)
                }
                written += cycle.frames
            }
            try music?.finish()
            try writer.finish()
            return Outcome(takeFrames: cycle.takeFrames, cycleFrames: cycle.frames, frames: frames, seconds: seconds,
                           frameRate: rate, copiedForward: copyForward)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// The take's picture packets, in decode order, each its own reference.
    private static func videoPackets(_ input: MediaInput) throws(MediaError) -> [OwnedPacket] {
        let reader = try OwnedPacket()
        var packets: [OwnedPacket] = []
        while true {
            let code = cff_av_read_frame(input.context, reader.pointer)
            if code == CFF_AVERROR_EOF { break }
            try MediaError.check(code, "av_read_frame")
            defer { cff_av_packet_unref(reader.pointer) }
            if reader.pointer.pointee.stream_index == input.videoStream.pointee.index {
                packets.append(try OwnedPacket(cloning: reader.pointer))
            }
        }
        return packets
    }

    /// `packet` (Annex B) with each unit behind its 4-byte length, as an MP4 keeps H.264.
    static func lengthPrefixed(_ packet: OwnedPacket) throws(MediaError) -> OwnedPacket {
        let source = packet.pointer.pointee
        guard let data = source.data, source.size > 0 else { return packet }
        let raw = UnsafeRawBufferPointer(start: data, count: Int(source.size))
        var out: [UInt8] = []
        for unit in H264Bitstream.nalUnits(raw) {
            // (trailing zero bytes before the next start code belong to no unit)
            var end = unit.range.upperBound
            while end > unit.range.lowerBound + 1 && raw[end - 1] == 0 { end -= 1 }
            let length = UInt32(end - unit.range.lowerBound)
            out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            out += raw[unit.range.lowerBound..<end]
        }
        let made = try OwnedPacket()
        try MediaError.check(cff_av_new_packet(made.pointer, Int32(out.count)), "av_new_packet")
        out.withUnsafeBytes { made.pointer.pointee.data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: out.count) }
        try MediaError.check(cff_av_packet_copy_props(made.pointer, packet.pointer), "av_packet_copy_props")
        return made
    }

    static func bytes(_ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
    }

    /// One forward-and-back cycle's packets, timestamped from 0 in `tick`s.
    private struct Cycle {
        var packets: [OwnedPacket] = []
        var takeFrames = 0
        var frames: Int { packets.count }

        init(packets take: [OwnedPacket], stream: UnsafeMutablePointer<AVStream>, encoder: H264Encoder, tick: Int64,
             copyForward: Bool) throws(MediaError) {
            let decoder = try PictureDecoder(stream)
            // Keyframe intervals: each decodes on its own.
            var starts = take.indices.filter { take[$0].pointer.pointee.flags & CFF_AV_PKT_FLAG_KEY != 0 }
            if starts.first != 0 { starts.insert(0, at: 0) }
            let intervals = starts.indices.map { i in starts[i]..<(i + 1 < starts.count ? starts[i + 1] : take.count) }
            var encoded: [OwnedPacket] = []
            var next: Int64 = 0
            func encode(_ picture: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
                picture.pointee.pts = next * tick
                picture.pointee.pict_type = AV_PICTURE_TYPE_NONE
                next += 1
                try encoder.encode(picture) { packet throws(MediaError) in encoded.append(try OwnedPacket(cloning: packet)) }
            }
            if copyForward {
                for packet in take {
                    let copy = try OwnedPacket(cloning: packet.pointer)
                    copy.pointer.pointee.pts = next * tick
                    copy.pointer.pointee.dts = next * tick
                    copy.pointer.pointee.duration = tick
                    self.packets.append(copy)
                    next += 1
                }
                takeFrames = take.count
            } else {
                for interval in intervals {
                    let pictures = try decoder.decode(take[interval], size: encoder.size)
                    for picture in pictures.frames { try encode(picture) }
                    takeFrames += pictures.frames.count
                }
            }
            // The way back: fn-1 ... f1, an interval at a time from the end.
            var remaining = takeFrames
            for interval in intervals.reversed() {
                let pictures = try decoder.decode(take[interval], size: encoder.size)
                for (i, picture) in pictures.frames.enumerated().reversed() {
                    let index = remaining - pictures.frames.count + i
                    if index >= 1 && index <= takeFrames - 2 { try encode(picture) }
                }
                remaining -= pictures.frames.count
            }
            try encoder.encode(nil) { packet throws(MediaError) in encoded.append(try OwnedPacket(cloning: packet)) }
            encoded.sort { $0.pointer.pointee.pts < $1.pointer.pointee.pts }
            // Beside the take's packets, the encoder's (Annex B: start codes) in the take's form.
            if copyForward { encoded = try encoded.map { packet throws(MediaError) in try Boomerang.lengthPrefixed(packet) } }
            self.packets += encoded
        }
    }
}

extension H264Encoder {
    /// The pictures' size.
    var size: (width: Int32, height: Int32) { (context.pointee.width, context.pointee.height) }
}

/// A stream's decoder (one thread), opened, for decoding one keyframe interval at a time.
final class PictureDecoder {
    private let decoder: DecoderContext
    private let converter = PixelConverter()

    init(_ stream: UnsafeMutablePointer<AVStream>) throws(MediaError) {
        guard let parameters = stream.pointee.codecpar, let codec = cff_avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError(.missingCodec, .noDecoder(.video))
        }
        decoder = try DecoderContext(codec)
        try MediaError.check(cff_avcodec_parameters_to_context(decoder.context, parameters), "avcodec_parameters_to_context")
        decoder.context.pointee.thread_count = 1
        try MediaError.check(cff_avcodec_open2(decoder.context, codec, nil), "avcodec_open2(decoder)")
    }

    /// Decoded pictures, freed with their owner.
    final class Pictures {
        fileprivate(set) var frames: [UnsafeMutablePointer<AVFrame>] = []
        deinit {
            for frame in frames {
                var f: UnsafeMutablePointer<AVFrame>? = frame
                cff_av_frame_free(&f)
            }
        }
    }

    /// The pictures of `packets` (a keyframe and those after it), in the order they are shown,
    /// as yuv420p of `size`; the decoder starts afresh for the next call.
    func decode(_ packets: ArraySlice<OwnedPacket>, size: (width: Int32, height: Int32)) throws(MediaError) -> Pictures {
        let pictures = Pictures()
        defer { cff_avcodec_flush_buffers(decoder.context) }
        func receive() throws(MediaError) {
            while true {
                let code = cff_avcodec_receive_frame(decoder.context, decoder.frame)
                if code == CFF_AVERROR_EAGAIN || code == CFF_AVERROR_EOF { return }
                try MediaError.check(code, "avcodec_receive_frame")
                defer { cff_av_frame_unref(decoder.frame) }
                let frame = decoder.frame
                if frame.pointee.format == AV_PIX_FMT_YUV420P.rawValue && frame.pointee.width == size.width && frame.pointee.height == size.height {
                    guard let copy = cff_av_frame_clone(frame) else { throw MediaError(.failed, .noObject(function: "av_frame_clone")) }
                    pictures.frames.append(copy)
                } else {
                    let picture = try PixelConverter.makePicture(width: Int(size.width), height: Int(size.height))
                    pictures.frames.append(picture)
                    try converter.convert(frame, into: picture)
                }
            }
        }
        for packet in packets {
            try MediaError.check(cff_avcodec_send_packet(decoder.context, packet.pointer), "avcodec_send_packet")
            try receive()
        }
        try MediaError.check(cff_avcodec_send_packet(decoder.context, nil), "avcodec_send_packet")
        try receive()
        return pictures
    }
}
