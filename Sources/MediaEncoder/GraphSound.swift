internal import CFFmpeg
package import MediaValues
import AudioCapture

/// Sound made by a libavfilter graph (its `abuffersink` gives interleaved float), encoded to AAC
/// into an MP4 beside pictures its owner writes: the sound of an effect (`Boomerang`'s chosen
/// sound, `SlowMotion`'s stretched take) or a take's levelled sound (`SoundLeveller`).
///
/// Placed by the graph's own timestamps on the pictures' clock (the take's pictures start at 0),
/// cut at `end`. The owner interleaves: before each picture it asks for the sound up to it.
final class GraphSound {
    private let graph: FilterGraph
    private let encoder: AACEncoder
    private let writer: MP4Writer
    private let frame: UnsafeMutablePointer<AVFrame>
    private let format: AudioFormat
    /// Microseconds at which the sound is cut.
    private let end: Int64
    private var pending = false
    private var ended = false

    /// - Parameter chain: a graph description whose `abuffersink` gives `flt` at `sampleRate`
    ///   with `channels` (made by `ending(_:)`).
    init(chain: String, sampleRate: Int, channels: Int, bitRate: Int?, writer: MP4Writer, endSeconds: Double) throws(MediaError) {
        graph = try FilterGraph(chain, audioFrameSamples: 1024)
        format = AudioFormat(sampleRate: sampleRate, channels: channels, sampleFormat: .float32)
        encoder = try AACEncoder(input: format, bitRate: bitRate)
        self.writer = writer
        end = Int64((endSeconds * 1_000_000).rounded())
        guard let frame = cff_av_frame_alloc() else { throw MediaError(.failed, .noObject(function: "av_frame_alloc")) }
        self.frame = frame
        try writer.addAudio(from: encoder.codecContext)
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        cff_av_frame_free(&f)
    }

    /// The tail every chain ends with: `flt` at `sampleRate` in `channels`, into the sink.
    static func ending(sampleRate: Int, channels: Int) -> String {
        ",aresample=\(sampleRate),aformat=sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(channels == 1 ? "mono" : "stereo")[a];[a]abuffersink"
    }

    /// Encodes the graph's sound that starts before `microseconds`.
    func write(until microseconds: Int64) throws(MediaError) {
        let base = encoder.codecContext.pointee.time_base
        while !ended {
            if !pending {
                guard try graph.nextSound(into: frame) else { ended = true; break }
                pending = true
            }
            let at = frame.pointee.pts == CFF_AV_NOPTS_VALUE ? 0
                : cff_av_rescale_q(frame.pointee.pts, graph.audioTimeBase, AVRational(num: 1, den: 1_000_000))
            guard at < microseconds else { return }
            pending = false
            let count = Int(frame.pointee.nb_samples)
            guard count > 0, let data = frame.pointee.data.0 else { continue }
            let bytes = Array(UnsafeBufferPointer(start: data, count: count * format.bytesPerFrame))
            try encoder.append(AudioChunk(bytes: bytes, frames: count, timestampMicroseconds: at), origin: 0, end: end) { packet throws(MediaError) in
                try writer.writeAudio(packet, from: base)
            }
        }
    }

    /// The rest of the sound, up to `end`, and the encoder's last packets.
    func finish() throws(MediaError) {
        try write(until: end)
        let base = encoder.codecContext.pointee.time_base
        try encoder.finish { packet throws(MediaError) in try writer.writeAudio(packet, from: base) }
    }
}

extension MediaInput {
    /// Copies this file's picture packets into `writer`, each changed by `change` first (its
    /// timestamps still in the stream's time base), with `sound` written up to each picture's end.
    /// Returns the pictures copied and where the last one ends, in the stream's time base.
    @discardableResult
    func copyPictures(to writer: MP4Writer, path: String, sound: GraphSound?,
                      change: (UnsafeMutablePointer<AVPacket>) -> Void = { _ in }) throws(MediaError) -> (frames: Int, end: Int64) {
        let base = videoStream.pointee.time_base
        let packet = try OwnedPacket()
        var frames = 0
        var end: Int64 = 0
        while true {
            let code = cff_av_read_frame(context, packet.pointer)
            if code == CFF_AVERROR_EOF { break }
            try MediaError.check(code, "av_read_frame", path: path)
            defer { cff_av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == videoStream.pointee.index else { continue }
            let p = packet.pointer
            change(p)
            end = max(end, p.pointee.pts + p.pointee.duration)
            try sound?.write(until: cff_av_rescale_q(p.pointee.pts + p.pointee.duration, base, AVRational(num: 1, den: 1_000_000)))
            try writer.write(p, from: base, defaultDuration: 0)
            frames += 1
        }
        return (frames, end)
    }
}
