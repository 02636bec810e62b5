internal import CFFmpeg
import AudioCapture
import MediaValues

/// Captured sound to AAC-LC through FFmpeg's own `aac` encoder, on the picture's clock.
///
/// Samples are converted (and, where the sound card's clock drifts from the camera's, stretched or
/// squeezed) by libswresample, which compares each chunk's capture time with how much sound it has
/// already put out: small differences are corrected gradually (at most 0.5% faster or slower, well
/// beyond the 0.3% of a poor sound card); a gap of more than 0.1 s (an overrun, a stalled process)
/// is filled with silence, so the sound after it is in sync again. Video frames are never dropped
/// or repeated for it.
///
/// One thread at a time: whichever writes the file (the encoding thread, or the caller's for a
/// camera's own H.264).
final class AACEncoder {
    /// Output in `1/sampleRate`: packets carry the encoder's priming as a negative start, which the
    /// faststart MP4 trims with an edit list.
    let input: AudioFormat
    let sampleRate: Int32
    let channels: Int32
    let bitRate: Int
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// Planar float scratch for one conversion, `capacity` samples per channel.
    private var scratch: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private var capacity: Int32 = 0
    /// The output sample index (from the first picture) of the first sample in the FIFO.
    private var nextPts: Int64?
    /// Samples put out so far, trimmed and padded as the clock asked: what the track holds.
    private(set) var samplesEncoded: Int64 = 0

    /// - Parameter bitRate: bits per second; nil takes 128 kb/s for stereo, 96 kb/s for mono.
    init(input: AudioFormat, bitRate: Int? = nil) throws(MediaError) {
        try FFmpegLibraries.load()
        self.input = input
        sampleRate = Int32(input.sampleRate)
        channels = Int32(min(max(input.channels, 1), 2))
        self.bitRate = bitRate ?? (channels == 2 ? 128_000 : 96_000)
        scratch = .allocate(capacity: 2)
        scratch.initialize(repeating: nil, count: 2)
        guard let codec = cff_avcodec_find_encoder_by_name("aac") else {
            throw MediaError(.missingCodec, .noEncoder(.aac))
        }
        guard let context = cff_avcodec_alloc_context3(codec) else { throw MediaError(.failed, .noObject(function: "avcodec_alloc_context3")) }
        self.context = context
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = sampleRate
        cff_av_channel_layout_default(&context.pointee.ch_layout, channels)
        context.pointee.bit_rate = Int64(self.bitRate)
        context.pointee.time_base = AVRational(num: 1, den: sampleRate)
        // MP4 keeps the AudioSpecificConfig in its sample description, not in the stream.
        context.pointee.flags |= CFF_AV_CODEC_FLAG_GLOBAL_HEADER
        try MediaError.check(cff_avcodec_open2(context, codec, nil), "avcodec_open2(aac)")

        var inLayout = AVChannelLayout()
        cff_av_channel_layout_default(&inLayout, Int32(input.channels))
        var swr: OpaquePointer?
        try MediaError.check(cff_swr_alloc_set_opts2(&swr, &context.pointee.ch_layout, AV_SAMPLE_FMT_FLTP, sampleRate,
                                                     &inLayout, input.sampleFormat.avSampleFormat, sampleRate),
                             "swr_alloc_set_opts2")
        resampler = swr
        // Timestamp matching: stretch by up to 240 samples a second (0.5% at 48 kHz) to follow
        // the capture times; jumps over min_hard_comp (0.1 s) are filled or trimmed at once.
        try MediaError.check(cff_av_opt_set_double(UnsafeMutableRawPointer(swr), "async", 240, 0), "av_opt_set(async)")
        try MediaError.check(cff_swr_init(swr), "swr_init")
        guard let fifo = cff_av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, 4096) else {
            throw MediaError(.failed, .noObject(function: "av_audio_fifo_alloc"))
        }
        self.fifo = fifo
        guard let frame = cff_av_frame_alloc(), let packet = cff_av_packet_alloc() else {
            throw MediaError(.failed, .noObject(function: "av_frame_alloc"))
        }
        self.frame = frame
        self.packet = packet
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = sampleRate
        cff_av_channel_layout_default(&frame.pointee.ch_layout, channels)
        frame.pointee.nb_samples = frameSize
        try MediaError.check(cff_av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
    }

    deinit {
        var c = context
        if c != nil { cff_avcodec_free_context(&c) }
        if resampler != nil { cff_swr_free(&resampler) }
        if let fifo { cff_av_audio_fifo_free(fifo) }
        var f = frame
        if f != nil { cff_av_frame_free(&f) }
        var p = packet
        if p != nil { cff_av_packet_free(&p) }
        if scratch[0] != nil { cff_av_freep(scratch) }
        scratch.deallocate()
    }

    /// The codec context, for the MP4 stream's parameters.
    var codecContext: UnsafeMutablePointer<AVCodecContext> { context! }

    /// AAC's fixed frame: 1024 samples.
    private var frameSize: Int32 { max(context?.pointee.frame_size ?? 1024, 1) }

    /// Converts and encodes `chunk`, timed from `origin` (the first picture's capture time): sound
    /// before the origin or at or after `end` is cut off. Hands every packet to `sink`.
    func append(_ chunk: AudioChunk, origin: Int64, end: Int64?,
                sink: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        let rate = Int64(input.sampleRate)
        var first = 0, count = chunk.frames
        if chunk.timestampMicroseconds < origin {
            first = Int(((origin - chunk.timestampMicroseconds) * rate + 999_999) / 1_000_000)
        }
        if let end {
            let room = (end - chunk.timestampMicroseconds) * rate / 1_000_000
            count = min(count, Int(max(room, 0)))
        }
        guard count > first else { return }
        let startMicroseconds = chunk.timestampMicroseconds + Int64(first) * 1_000_000 / rate
        // libswresample's timestamps are in 1/(in_rate * out_rate); Double keeps hours in range.
        let units = Double(startMicroseconds - origin) * Double(rate) * Double(sampleRate) / 1_000_000
        let outPts = cff_swr_next_pts(resampler, Int64(units.rounded()))
        if nextPts == nil { nextPts = outPts / rate }
        let samples = Int32(count - first)
        try ensureCapacity(cff_swr_get_out_samples(resampler, samples))
        let converted = chunk.bytes.withUnsafeBufferPointer { bytes -> Int32 in
            var source: UnsafePointer<UInt8>? = bytes.baseAddress! + first * input.bytesPerFrame
            return withUnsafeMutablePointer(to: &source) { pointer in
                cff_swr_convert(resampler, scratch, capacity, pointer, samples)
            }
        }
        try MediaError.check(converted, "swr_convert")
        try push(converted, sink: sink)
    }

    /// Flushes the resampler and the encoder: the last, partial frame included.
    func finish(sink: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        guard nextPts != nil else { return }
        try ensureCapacity(cff_swr_get_out_samples(resampler, 0))
        let flushed = cff_swr_convert(resampler, scratch, capacity, nil, 0)
        try MediaError.check(flushed, "swr_convert")
        try push(flushed, sink: sink)
        let left = cff_av_audio_fifo_size(fifo)
        if left > 0 { try encodeFrame(samples: left, sink: sink) }
        try encode(nil, sink: sink)
    }

    private func ensureCapacity(_ needed: Int32) throws(MediaError) {
        guard needed > capacity else { return }
        if scratch[0] != nil { cff_av_freep(scratch) }
        var linesize: Int32 = 0
        try MediaError.check(cff_av_samples_alloc(scratch, &linesize, channels, needed, AV_SAMPLE_FMT_FLTP, 0), "av_samples_alloc")
        capacity = needed
    }

    private func push(_ count: Int32, sink: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        guard count > 0 else { return }
        let written = scratch.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 2) { planes in
            cff_av_audio_fifo_write(fifo, planes, count)
        }
        guard written == count else { throw MediaError.from(written < 0 ? written : -12, "av_audio_fifo_write") }
        while cff_av_audio_fifo_size(fifo) >= frameSize {
            try encodeFrame(samples: frameSize, sink: sink)
        }
    }

    private func encodeFrame(samples: Int32, sink: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        guard let frame else { return }
        try MediaError.check(cff_av_frame_make_writable(frame), "av_frame_make_writable")
        let read = withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes in
                cff_av_audio_fifo_read(fifo, planes, samples)
            }
        }
        guard read == samples else { throw MediaError.from(read < 0 ? read : -5, "av_audio_fifo_read") }
        frame.pointee.nb_samples = samples
        frame.pointee.pts = nextPts ?? 0
        nextPts = (nextPts ?? 0) + Int64(samples)
        samplesEncoded += Int64(samples)
        try encode(frame, sink: sink)
    }

    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?, sink: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        try MediaError.check(cff_avcodec_send_frame(context, frame), "avcodec_send_frame(aac)")
        while true {
            let code = cff_avcodec_receive_packet(context, packet)
            if code == CFF_AVERROR_EAGAIN || code == CFF_AVERROR_EOF { return }
            try MediaError.check(code, "avcodec_receive_packet(aac)")
            defer { cff_av_packet_unref(packet) }
            try sink(packet!)
        }
    }
}

extension SampleFormat {
    /// The same layout in FFmpeg's terms (interleaved).
    var avSampleFormat: AVSampleFormat {
        switch self {
        case .s16: AV_SAMPLE_FMT_S16
        case .s32: AV_SAMPLE_FMT_S32
        case .float32: AV_SAMPLE_FMT_FLT
        }
    }
}
