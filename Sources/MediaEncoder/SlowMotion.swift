internal import CFFmpeg
import SystemSupport
package import MediaValues

/// Slow motion (`shoot.effect = slowmo`): a take recorded at the camera's fastest rate, played at
/// `playbackRate`, each recorded picture shown once, for longer. The pictures' packets are copied
/// as recorded with their timestamps stretched by `factor` (the recorded rate over the playback
/// rate): nothing is encoded again and no picture is made up or left out. The sound is left out,
/// or kept at its pitch and stretched with it by libavfilter's `atempo`.
package enum SlowMotion {
    /// The rate the slowed pictures play at.
    package static let playbackRate = 30.0

    package struct Outcome: Sendable, Hashable {
        /// How many times slower than life it plays.
        package var factor: Double
        /// The pictures, as many as the take's.
        package var frames: Int
        package var seconds: Double
        /// The sound is there, stretched (false: left out).
        package var soundKept: Bool
    }

    /// Writes `take` `factor` times slower to `output` (faststart MP4); `keepSound`: its sound too,
    /// stretched at its pitch, AAC at `bitRate` (nil: the encoder's default).
    package static func render(take: String, to output: String, factor: Double, keepSound: Bool,
                               bitRate: Int? = nil) throws(MediaError) -> Outcome {
        guard factor.isFinite, factor >= 1, factor <= 16 else {
            throw MediaError(.badInput, .slowMotionFactor(factor: factor), path: take)
        }
        let input = try MediaInput(path: take)
        let video = input.videoStream
        let base = video.pointee.time_base
        let writer = try MP4Writer(path: output, fragmented: false)
        do {
            try writer.configure(from: video.pointee.codecpar, timeBase: base)
            let start = video.pointee.start_time == CFF_AV_NOPTS_VALUE ? 0 : video.pointee.start_time
            let length = Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
            var sound: GraphSound?
            if keepSound, let audio = input.audioStream?.pointee.codecpar.pointee {
                let channels = Int(min(max(audio.ch_layout.nb_channels, 1), 2)), rate = Int(audio.sample_rate)
                sound = try GraphSound(chain: "amovie=\(FilterGraph.escaped(take))\(tempo(1 / factor))" + GraphSound.ending(sampleRate: rate, channels: channels),
                                       sampleRate: rate, channels: channels, bitRate: bitRate ?? Int(audio.bit_rate > 0 ? audio.bit_rate : 0).nonZero,
                                       writer: writer, endSeconds: length * factor)
            }
            try writer.writeHeader()
            let (frames, end) = try input.copyPictures(to: writer, path: take, sound: sound) { p in
                p.pointee.pts = Self.stretch(p.pointee.pts - start, factor)
                p.pointee.dts = Self.stretch(p.pointee.dts - start, factor)
                p.pointee.duration = Self.stretch(p.pointee.duration, factor)
            }
            try sound?.finish()
            try writer.finish()
            return Outcome(factor: factor, frames: frames, seconds: Double(end) * av_q2d(base), soundKept: sound != nil)
        } catch {
            writer.abandon()
            throw error
        }
    }

    private static func stretch(_ value: Int64, _ factor: Double) -> Int64 {
        value == CFF_AV_NOPTS_VALUE ? value : Int64((Double(value) * factor).rounded())
    }

    /// `atempo` filters (a leading comma) for `tempo` below 1: each instance takes at least 0.5.
    static func tempo(_ tempo: Double) -> String {
        var left = tempo, chain = ""
        while left < 0.5 - 1e-9 {
            chain += ",atempo=0.5"
            left /= 0.5
        }
        return chain + ",atempo=\(String(cFormat: "%.6f", left))"
    }
}

private extension Int {
    /// nil for 0.
    var nonZero: Int? { self == 0 ? nil : self }
}
