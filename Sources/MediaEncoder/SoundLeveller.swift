internal import CFFmpeg
import SystemSupport
package import MediaValues
import Glibc

/// Brings a take's sound to one loudness (`audio.loudness`): EBU R128 integrated loudness measured
/// by libavfilter's `ebur128` (`ReelWriter.loudness`), a gain to the target, and where that gain
/// would lift the true peak over `truePeakCeiling`, a limiter on the peaks alone (`alimiter` at
/// four times the rate, so the peaks between samples are caught too). The result is measured again
/// and the gain corrected until it is within `tolerance` (`maximumPasses`).
///
/// The gain is one number for the whole take (no compressor that rides the level up and down), so
/// a later gain (the highlight reel's own) cannot pump it. The pictures' packets are copied
/// untouched; only the sound is encoded again, AAC at the take's rate, channels and bit rate.
package enum SoundLeveller {
    /// The loudness a take's sound ends at, within this many LU of the target.
    package static let tolerance = 0.5
    /// The highest true peak (dBTP) the levelled sound may reach.
    package static let truePeakCeiling = -1.0
    /// Passes of encoding and measuring at most: one for most takes, more when a limiter holds
    /// the peaks of a quiet take and takes loudness with them.
    static let maximumPasses = 5

    package struct Outcome: Sendable, Hashable {
        package var before: ReelWriter.Loudness
        package var after: ReelWriter.Loudness
        /// The gain applied (dB), and whether the limiter held peaks down.
        package var gain: Double
        package var limited: Bool
        package var passes: Int
    }

    /// Writes `take` with its sound at `target` LUFS to `output` (faststart MP4); nil when the take
    /// has no sound to level (none, or silence below ebur128's gate): then nothing is written.
    package static func level(take: String, to output: String, target: Double) throws(MediaError) -> Outcome? {
        guard let before = try ReelWriter.loudness(of: take) else { return nil }
        var gain = target - before.integrated
        var ceiling = truePeakCeiling - 0.5
        var passes = 0
        // The last pass's gain and what it gave, for the next guess.
        var last: (gain: Double, loudness: Double) = (0, before.integrated)
        while true {
            passes += 1
            let limited = before.truePeak + gain > ceiling
            try write(take, to: output, gain: gain, limit: limited ? ceiling : nil)
            guard let after = try ReelWriter.loudness(of: output) else {
                throw MediaError(.failed, .levelledSoundSilent, path: take)
            }
            let off = target - after.integrated
            let over = after.truePeak - truePeakCeiling
            if (abs(off) <= tolerance && over <= 0) || passes == maximumPasses {
                return Outcome(before: before, after: after, gain: gain, limited: limited, passes: passes)
            }
            // Too quiet (the limiter took more than the peaks) or too loud: the gain follows, by
            // as many dB as the last step's dB gave (a limiter holding loud peaks gives less than
            // one for one), at most four for one; peaks over the ceiling (the codec's overshoot):
            // the limit goes down by as much.
            let slope = (after.integrated - last.loudness) / (gain - last.gain)
            let step = slope.isFinite && slope > 0.25 ? off / min(slope, 1) : off * 4
            last = (gain, after.integrated)
            gain += step
            if over > 0 { ceiling -= over + 0.1 }
        }
    }

    /// One pass: the take's pictures copied, its sound through `volume` (and `alimiter` at `limit`
    /// dBFS) into AAC.
    private static func write(_ take: String, to output: String, gain: Double, limit: Double?) throws(MediaError) {
        let input = try MediaInput(path: take)
        guard let audio = input.audioStream?.pointee.codecpar.pointee else {
            throw MediaError(.badInput, .noSound, path: take)
        }
        let video = input.videoStream
        let base = video.pointee.time_base
        let channels = Int(min(max(audio.ch_layout.nb_channels, 1), 2)), rate = Int(audio.sample_rate)
        let length = Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
        var chain = "amovie=\(FilterGraph.escaped(take)),volume=\(String(cFormat: "%.3f", gain))dB:precision=double"
        if let limit {
            // (4x the rate: a peak between two samples is a sample there; latency=1 keeps the
            // sound where it was against the pictures)
            chain += ",aresample=\(rate * 4),alimiter=limit=\(String(cFormat: "%.5f", pow(10, limit / 20))):attack=1:release=50:level=0:latency=1"
        }
        let writer = try MP4Writer(path: output, fragmented: false)
        do {
            try writer.configure(from: video.pointee.codecpar, timeBase: base)
            let sound = try GraphSound(chain: chain + GraphSound.ending(sampleRate: rate, channels: channels),
                                       sampleRate: rate, channels: channels, bitRate: audio.bit_rate > 0 ? Int(audio.bit_rate) : nil,
                                       writer: writer, endSeconds: length)
            try writer.writeHeader()
            try input.copyPictures(to: writer, path: take, sound: sound)
            try sound.finish()
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }
}
