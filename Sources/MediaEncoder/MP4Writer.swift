internal import CFFmpeg
internal import SystemSupport
#if canImport(Glibc)
import Glibc
#endif
import MediaValues

/// A video stream, and optionally a sound stream, into an MP4 file through libavformat.
///
/// `fragmented` writes an empty moov and a fragment per keyframe, flushing each packet to the
/// file and putting each finished fragment on the disk (fdatasync), so a crash or a power cut
/// leaves a file that plays up to its last complete fragment.
final class MP4Writer {
    let path: String
    private let context: UnsafeMutablePointer<AVFormatContext>
    let stream: UnsafeMutablePointer<AVStream>
    /// The sound stream, once `addAudio` made one.
    private(set) var audioStream: UnsafeMutablePointer<AVStream>?
    private var headerWritten = false
    private let fragmented: Bool
    /// Added to the sound's timestamps (in its time base): the sound encoder's priming, see `addAudio`.
    private var audioShift: Int64 = 0
    private var audioShiftBase = AVRational(num: 1, den: 1)
    private var closed = false
    /// A second descriptor of a fragmented recording, only for fdatasync: libavformat's own is not
    /// reachable, and a sync through any descriptor of a file puts all of its data on the disk.
    private var syncDescriptor: Int32 = -1

    init(path: String, fragmented: Bool) throws(MediaError) {
        try FFmpegLibraries.load()
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try MediaError.check(cff_avformat_alloc_output_context2(&ctx, nil, "mp4", path), "avformat_alloc_output_context2", path: path)
        guard let context = ctx else { throw MediaError(.failed, .noObject(function: "avformat_alloc_output_context2"), path: path) }
        guard let stream = cff_avformat_new_stream(context, nil) else {
            cff_avformat_free_context(context)
            throw MediaError(.failed, .noObject(function: "avformat_new_stream"), path: path)
        }
        self.path = path
        self.context = context
        self.stream = stream
        self.fragmented = fragmented
        if fragmented { context.pointee.flush_packets = 1 }
        // Without its movflags a recording would not survive a crash: a refusal fails the shot.
        let movflags = fragmented ? "frag_keyframe+empty_moov+default_base_moof" : "faststart"
        var code = cff_av_opt_set(context.pointee.priv_data, "movflags", movflags, 0)
        let operation = code < 0 ? "av_opt_set(movflags=\(movflags))" : "avio_open"
        if code >= 0 { code = cff_avio_open(&context.pointee.pb, path, CFF_AVIO_FLAG_WRITE) }
        // Fully initialised by now, so deinit (abandon) frees the context: freeing it here too was a double free.
        if code < 0 { throw MediaError.from(code, operation, path: path) }
        if fragmented {
            // Without it the kernel keeps a recording's fragments in memory for up to 30 s
            // (vm.dirty_expire_centisecs): a power cut took whole clips (Tests/vm/power-cut.sh).
            do throws(Descriptors.Errno) {
                syncDescriptor = try Posix.open(path, O_WRONLY | O_CLOEXEC)
                // The file's name too, so the recording is found again after the cut.
                let directory = FilePaths.directory(of: path)
                let fd = try Posix.open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
                defer { Posix.closeAfterUse(fd) }
                try Posix.fsync(fd)
            } catch {
                throw MediaError(error.code == ENOSPC ? .diskFull : .failed, .system(function: "open and fsync", errno: error.code), code: error.code, path: path)
            }
        }
    }

    deinit { abandon() }

    /// Whether the container wants codec headers out of band (MP4 does).
    var wantsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & CFF_AVFMT_GLOBALHEADER != 0 }

    /// Copies the stream parameters from an open encoder.
    func configure(from encoder: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        try MediaError.check(cff_avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        stream.pointee.time_base = encoder.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.pointee.framerate
    }

    /// Copies stream parameters read from another file.
    func configure(from parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(MediaError) {
        try MediaError.check(cff_avcodec_parameters_copy(stream.pointee.codecpar, parameters), "avcodec_parameters_copy")
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
    }

    /// Sets up an H.264 stream copied from a camera; `extradata` is its SPS and PPS in Annex B form.
    func configureH264Copy(width: Int, height: Int, timeBase: AVRational, frameRate: AVRational, extradata: [UInt8]) throws(MediaError) {
        let par = stream.pointee.codecpar!
        par.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        par.pointee.codec_id = AV_CODEC_ID_H264
        par.pointee.width = Int32(width)
        par.pointee.height = Int32(height)
        guard let buffer = cff_av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw MediaError(.failed, .noObject(function: "av_mallocz"))
        }
        extradata.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: extradata.count) }
        par.pointee.extradata = buffer.assumingMemoryBound(to: UInt8.self)
        par.pointee.extradata_size = Int32(extradata.count)
        stream.pointee.time_base = timeBase
        stream.pointee.avg_frame_rate = frameRate
    }

    /// Adds a sound stream with an encoder's parameters; before `writeHeader`.
    func addAudio(from encoder: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        let audio = try newStream()
        try MediaError.check(cff_avcodec_parameters_from_context(audio.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        audio.pointee.time_base = encoder.pointee.time_base
        audioStream = audio
        if fragmented && encoder.pointee.initial_padding > 0 && encoder.pointee.sample_rate > 0 {
            // The sound encoder's priming starts before the first picture (negative timestamps),
            // which a fragmented file cannot trim: the muxer would shift the streams to start at 0,
            // but only from the first negative packet on (pictures written before it kept their
            // times, and behind a camera's first keyframe the sound failed to write), and it starts
            // each track of a fragmented file at 0 anyway. So the sound is written priming first at
            // 0: in the crash-safe file it plays 1024 samples (21 ms) late, within lip-sync limits,
            // and the remux (`MP4Remuxer`) moves it back and trims the priming with an edit list.
            audioShift = Int64(encoder.pointee.initial_padding)
            audioShiftBase = encoder.pointee.time_base
        }
    }

    /// Adds a stream with parameters read from another file (a remux); before `writeHeader`.
    func addStream(from parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        let added = try newStream()
        try MediaError.check(cff_avcodec_parameters_copy(added.pointee.codecpar, parameters), "avcodec_parameters_copy")
        added.pointee.codecpar.pointee.codec_tag = 0
        added.pointee.time_base = timeBase
        if parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
            // The demuxer leaves AAC's frame size out; the muxer wants it for the sound's index.
            if added.pointee.codecpar.pointee.frame_size == 0 && parameters.pointee.codec_id == AV_CODEC_ID_AAC {
                added.pointee.codecpar.pointee.frame_size = 1024
            }
            audioStream = added
        }
        return added
    }

    private func newStream() throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        guard let added = cff_avformat_new_stream(context, nil) else {
            throw MediaError(.failed, .noObject(function: "avformat_new_stream"), path: path)
        }
        return added
    }

    /// Writes one sound packet whose timestamps are in `source`.
    func writeAudio(_ packet: UnsafeMutablePointer<AVPacket>, from source: AVRational) throws(MediaError) {
        guard let audioStream else { return }
        cff_av_packet_rescale_ts(packet, source, audioStream.pointee.time_base)
        if audioShift != 0 {
            let offset = cff_av_rescale_q(audioShift, audioShiftBase, audioStream.pointee.time_base)
            if packet.pointee.pts != CFF_AV_NOPTS_VALUE { packet.pointee.pts += offset }
            if packet.pointee.dts != CFF_AV_NOPTS_VALUE { packet.pointee.dts += offset }
        }
        packet.pointee.stream_index = audioStream.pointee.index
        try MediaError.check(cff_av_write_frame(context, packet), "av_write_frame", path: path)
    }

    /// Writes one packet of `target` (a remux), its timestamps already in that stream's time base.
    /// Interleaved by the muxer: a fragmented recording holds each fragment's picture before its
    /// sound, and the sound's priming (before the first picture) must reach the muxer first, or it
    /// cannot be trimmed. (The remux is not crash-safe anyway, so buffering costs nothing.)
    func write(_ packet: UnsafeMutablePointer<AVPacket>, to target: UnsafeMutablePointer<AVStream>) throws(MediaError) {
        packet.pointee.stream_index = target.pointee.index
        try MediaError.check(cff_av_interleaved_write_frame(context, packet), "av_interleaved_write_frame", path: path)
    }

    /// The stream's time base; valid after `writeHeader` (the muxer may change it).
    var timeBase: AVRational { stream.pointee.time_base }

    func writeHeader() throws(MediaError) {
        try MediaError.check(cff_avformat_write_header(context, nil), "avformat_write_header", path: path)
        headerWritten = true
    }

    var isStarted: Bool { headerWritten }

    /// Writes one packet whose timestamps are in `source`, giving it `defaultDuration` (in `source`)
    /// when it has none.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, from source: AVRational, defaultDuration: Int64) throws(MediaError) {
        if packet.pointee.duration == 0 { packet.pointee.duration = defaultDuration }
        cff_av_packet_rescale_ts(packet, source, timeBase)
        try write(packet)
    }

    /// Writes one packet, its timestamps already in `timeBase`. A keyframe begins a fragment, and
    /// the muxer has just written the one before it: that one goes to the disk now.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        packet.pointee.stream_index = stream.pointee.index
        let keyframe = packet.pointee.flags & CFF_AV_PKT_FLAG_KEY != 0
        try MediaError.check(cff_av_write_frame(context, packet), "av_write_frame", path: path)
        if keyframe { try syncFragments() }
    }

    /// fdatasync of what the muxer wrote so far (fragmented recordings only). A sync the disk
    /// refuses fails the recording: its fragments would not survive a power cut.
    private func syncFragments() throws(MediaError) {
        guard syncDescriptor >= 0 else { return }
        do throws(Descriptors.Errno) { try Posix.fdatasync(syncDescriptor) } catch {
            throw MediaError(error.code == ENOSPC ? .diskFull : .failed, .system(function: "fdatasync", errno: error.code), code: error.code, path: path)
        }
    }

    /// Writes the trailer and closes the file.
    func finish() throws(MediaError) {
        guard !closed else { return }
        if headerWritten {
            let code = cff_av_write_trailer(context)
            if code < 0 { abandon(); throw MediaError.from(code, "av_write_trailer", path: path) }
            // The last fragment, written by the trailer.
            do throws(MediaError) { try syncFragments() } catch { abandon(); throw error }
        }
        closeSyncDescriptor()
        closed = true
        let code = cff_avio_closep(&context.pointee.pb)
        cff_avformat_free_context(context)
        try MediaError.check(code, "avio_closep", path: path)
    }

    /// Closes without a trailer: what is on disk stays as the last flushed fragment left it.
    func abandon() {
        guard !closed else { return }
        closeSyncDescriptor()
        closed = true
        cff_avio_closep(&context.pointee.pb)
        cff_avformat_free_context(context)
    }

    private func closeSyncDescriptor() {
        // (only synced through: the muxer writes the file through its own descriptor)
        if syncDescriptor >= 0 { Posix.closeAfterUse(syncDescriptor) }
        syncDescriptor = -1
    }
}
