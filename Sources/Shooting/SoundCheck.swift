package import AudioCapture
package import ShotValues

/// The silent-take guard: adds up a take's sound levels (~100 ms windows, as the level meter
/// measures them while recording) and judges the take at its end: silent, clipped for most of
/// it, ended early, or ok.
package struct SoundCheck: Sendable {
    /// Nothing louder than this in the whole take: nobody was heard (a quiet room's noise is
    /// around -60 dBFS, speech a metre away peaks around -20).
    package static let silentBelowDBFS = -45.0
    /// A window whose peak reaches this is at full scale.
    package static let clippedAtDBFS = -0.5
    /// Clipped in at least this share of the windows: clipping for most of the take.
    package static let clippingShare = 0.5

    private var windows = 0
    private var clipped = 0
    private var loudest = AudioLevel.silence

    package init() {}

    package mutating func add(_ level: AudioLevel) {
        windows += 1
        loudest = max(loudest, level.peakDBFS)
        if level.peakDBFS >= Self.clippedAtDBFS { clipped += 1 }
    }

    /// The verdict; `endedEarly`: the sound stopped before the picture (that comes first).
    package func verdict(endedEarly: Bool) -> ShotAudio.Check {
        let share = windows > 0 ? Double(clipped) / Double(windows) : 0
        let result: String
        if endedEarly {
            result = "ended-early"
        } else if loudest < Self.silentBelowDBFS {
            result = "silent"
        } else if share >= Self.clippingShare {
            result = "clipping"
        } else {
            result = "ok"
        }
        return ShotAudio.Check(result: result, loudestDBFS: (loudest * 10).rounded() / 10, clippedPercent: (share * 1000).rounded() / 10)
    }

    /// The note on a silent or clipped take; nil for one that is ok, or whose sound stopped
    /// early (that has its own note, `soundStoppedEarly`).
    package static func note(_ check: ShotAudio.Check) -> ShotNote? {
        switch check.result {
        case "silent": .silentTake(loudestDBFS: check.loudestDBFS, silentBelowDBFS: silentBelowDBFS)
        case "clipping": .clippedTake(clippedPercent: check.clippedPercent)
        default: nil
        }
    }
}
