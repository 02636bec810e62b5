import MediaEncoder
import Settings
import SystemSupport
import MediaValues
import Failures
import DurableFiles
import ShotValues

/// The take made into the finished shot, between the recording's end and its commit (so the
/// review plays the result): its sound levelled (`audio.loudness`), then its effect rendered
/// (`shoot.effect`). Neither ever fails the shot: what cannot be done leaves the take as it is,
/// and the shot says why as data (`audio.loudness.left`, `effect.notRendered`), worded at the edges.
extension ShotJob {
    /// `track`'s take levelled to `target` LUFS, with the loudness before and after.
    func level(_ draft: ShotDraft, _ track: ShotAudio, target: Double) -> ShotAudio {
        var track = track
        var loudness = ShotAudio.Loudness(targetLUFS: target)
        if track.check?.result == "silent" {
            // (the guard's verdict stands: nothing to lift but the room's noise)
            loudness.left = .silent
        } else {
            do throws(RecorderError) {
                if let outcome = try draft.levelSound(to: target) {
                    loudness.before = .init(integratedLUFS: outcome.before.integrated, truePeakDBTP: outcome.before.truePeak)
                    loudness.after = .init(integratedLUFS: outcome.after.integrated, truePeakDBTP: outcome.after.truePeak)
                    loudness.gainDB = (outcome.gain * 10).rounded() / 10
                    loudness.limited = outcome.limited
                } else {
                    loudness.left = .nothingToMeasure
                }
            } catch {
                loudness.left = .failure(fault: ShotFault(error))
            }
        }
        track.loudness = loudness
        return track
    }

    /// `track`'s effect (made from its levelled take) levelled again: `after` is the effect's.
    func relevel(_ draft: ShotDraft, _ track: ShotAudio, target: Double) -> ShotAudio {
        var track = track
        do throws(RecorderError) {
            if let outcome = try draft.levelSound(to: target) {
                track.loudness?.after = .init(integratedLUFS: outcome.after.integrated, truePeakDBTP: outcome.after.truePeak)
            }
        } catch {
            // (the effect's sound stays as made, its take's levelling said; `after` is then the take's)
        }
        return track
    }

    /// The effect asked for, made from the take in `draft` (kept beside it); nil for none.
    /// `recordedRate`: the rate the camera delivered.
    func makeEffect(_ draft: ShotDraft, recordedRate: Double) -> ShotEffect? {
        guard request.effect != .none else { return nil }
        var effect = ShotEffect(name: request.effect)
        let take = try? MediaProbe.inspect(draft.videoPath)
        let started = MonotonicClock.nowMicroseconds(), startedCPU = ProcessCPUClock.nowMicroseconds()
        let options = request.effectOptions, settings = request.encoder
        do throws(RecorderError) {
            switch request.effect {
            case .none:
                return nil
            case .boomerang:
                let made = try draft.render(.boomerang) { take, output throws(MediaError) in
                    try Boomerang.render(take: take, to: output, settings: settings, loopSeconds: options.loopSeconds,
                                         sound: options.sound, frameRate: recordedRate)
                }
                effect.boomerang = .init(takeFrames: made.takeFrames, cycleFrames: made.cycleFrames, frames: made.frames,
                                         copiedForward: made.copiedForward, sound: options.sound)
            case .slowmo:
                let playback = SlowMotion.playbackRate
                var facts = ShotEffect.SlowMotionFacts(recordedFrameRate: recordedRate, playbackFrameRate: playback, factor: 1,
                                                       cameraLimited: recordedRate < 2 * playback - 0.5, soundKept: false)
                // No faster than the playback rate: slowing it would only repeat or stretch
                // pictures the camera never took. Said, never faked.
                guard recordedRate > playback * 1.05 else {
                    effect.slowMotion = facts
                    effect.notRendered = .cameraTooSlow(fastest: recordedRate)
                    return effect
                }
                let made = try draft.render(.slowmo) { take, output throws(MediaError) in
                    try SlowMotion.render(take: take, to: output, factor: min(recordedRate, 240) / playback,
                                          keepSound: options.slowmoKeepsSound, bitRate: settings.audioBitRate)
                }
                facts.factor = (made.factor * 1000).rounded() / 1000
                facts.soundKept = made.soundKept
                effect.slowMotion = facts
            }
        } catch {
            effect.notRendered = .failure(fault: ShotFault(error))
            return effect
        }
        let seconds = Double(MonotonicClock.nowMicroseconds() - started) / 1_000_000
        effect.renderSeconds = (seconds * 1000).rounded() / 1000
        effect.renderCPUSeconds = (Double(ProcessCPUClock.nowMicroseconds() - startedCPU) / 1000).rounded() / 1000
        if let take {
            effect.original = .init(file: ShotDraft.takeName, durationSeconds: take.durationSeconds, frames: take.frameCount,
                                    frameRate: take.frameRate, byteSize: FileSystem.size(of: draft.takePath) ?? 0)
            if take.durationSeconds > 0 { effect.renderRatio = (seconds / take.durationSeconds * 1000).rounded() / 1000 }
        }
        return effect
    }
}
