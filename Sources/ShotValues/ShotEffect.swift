
/// The effect a shot was made into, as recorded in `shot.json` and a post's metadata: which, how,
/// and the take it was made from, kept beside it.
package struct ShotEffect: Sendable, Codable, Equatable {
    package var name: ClipEffect
    /// The take as recorded (`take.mp4` beside the shot's `video.mp4`); nil when the shot is its
    /// take (the effect was not rendered: `notRendered` says why).
    package var original: Original?
    /// Seconds the booth took to make it, and that over the take's length (at most 1 asked).
    package var renderSeconds: Double?
    package var renderRatio: Double?
    /// CPU seconds it took, on all cores (Benchmarks/effects.sh compares them with the ffmpeg CLI's).
    package var renderCPUSeconds: Double?
    package var boomerang: BoomerangFacts?
    package var slowMotion: SlowMotionFacts?
    /// Why the shot is its take and not the effect; nil when it is the effect.
    package var notRendered: NotRendered?

    package init(name: ClipEffect) { self.name = name }

    /// The take an effect was made from.
    package struct Original: Sendable, Codable, Hashable {
        /// Its file's name in the shot's folder.
        package var file: String
        package var durationSeconds: Double
        package var frames: Int
        package var frameRate: Double
        package var byteSize: Int64
        /// In a post: its key in the store (`takes/<id>.mp4`) and its SHA-256, set when it is posted.
        package var key: String?
        package var sha256: String?

        package init(file: String, durationSeconds: Double, frames: Int, frameRate: Double, byteSize: Int64) {
            (self.file, self.durationSeconds, self.frames, self.frameRate, self.byteSize) = (file, durationSeconds, frames, frameRate, byteSize)
        }
    }

    package struct BoomerangFacts: Sendable, Codable, Hashable {
        /// The take's pictures, one forward-and-back cycle's, and the boomerang's.
        package var takeFrames: Int
        package var cycleFrames: Int
        package var frames: Int
        /// The way forward is the take's own packets (only the way back was encoded).
        package var copiedForward: Bool
        /// The sound under it (`effect.sound`), if any.
        package var sound: String?

        package init(takeFrames: Int, cycleFrames: Int, frames: Int, copiedForward: Bool, sound: String?) {
            (self.takeFrames, self.cycleFrames, self.frames, self.copiedForward, self.sound) = (takeFrames, cycleFrames, frames, copiedForward, sound)
        }
    }

    package struct SlowMotionFacts: Sendable, Codable, Hashable {
        /// The rate the camera delivered at this size (its fastest), and the rate it plays at.
        package var recordedFrameRate: Double
        package var playbackFrameRate: Double
        /// How many times slower than life: recorded over playback rate, 1 when not slowed.
        package var factor: Double
        /// The camera is slower than 60 fps at this size: less than 2x, or not slowed at all.
        package var cameraLimited: Bool
        package var soundKept: Bool

        package init(recordedFrameRate: Double, playbackFrameRate: Double, factor: Double, cameraLimited: Bool, soundKept: Bool) {
            (self.recordedFrameRate, self.playbackFrameRate, self.factor, self.cameraLimited, self.soundKept) =
                (recordedFrameRate, playbackFrameRate, factor, cameraLimited, soundKept)
        }
    }

    /// Why a shot is its take rather than its effect.
    package enum NotRendered: Sendable, Codable, Equatable {
        /// Slow motion from a camera no faster than the playback rate: not slowed, never faked.
        case cameraTooSlow(fastest: Double)
        /// Making it failed; the take is the shot.
        case failure(fault: ShotFault)
        /// Making it failed, as shots and posts made before failures were data say it (the media
        /// library's call and its words): read back, never written now.
        case failed(operation: String, detail: String)
    }
}
