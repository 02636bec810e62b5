package import MediaEncoder
package import VideoCapture
package import Settings
package import MediaValues
package import Failures
package import ShotValues

/// Everything `recorder shoot` was asked for.
package struct ShotRequest: Sendable {
    package static let maximumSeconds = Setting.maximumShotSeconds
    /// A picture's width and height, in pixels.
    package static let sizeRange = ShotFailure.sizeRange
    /// Frames per second.
    package static let frameRateRange = ShotFailure.frameRateRange
    /// x264's constant rate factor: 0 (lossless) to 51 (worst).
    package static let crfRange = 0...51
    /// An average bitrate, in kbit/s.
    package static let bitrateRange = ShotFailure.bitrateRange

    /// nil or "auto": the first camera, or the test pattern when there is none.
    /// "testsrc", "y4m:PATH" (or a path ending in .y4m), a /dev path, a by-id name or an index.
    package var device: String?
    package var seconds: Double
    package var capture: CaptureRequest
    package var encoder: EncoderSettings
    /// Seconds without a frame before the camera counts as stalled.
    package var stallTimeout: Double
    /// A shot stopped early with less than this (and less than `seconds`) is discarded and the
    /// previous shot kept: a stop a moment in must not replace a good shot with a few frames.
    package var minimumSeconds: Double
    /// Which sound to record with the picture.
    package var audio: AudioChoice
    /// The guest's yes and its text, when the kiosk asks for consent: kept in the shot's folder
    /// from its first frame, so a recording recovered after a crash carries it too.
    package var consent: GivenConsent?
    /// The question the guest was shown when the shot started (`kiosk.prompts`), if any.
    package var prompt: String?
    /// What the shot is made into after its take (`shoot.effect`; `choose(_:)` sets it).
    package internal(set) var effect = ClipEffect.none
    /// How the effect is made (`effect.*`).
    package var effectOptions = EffectOptions()
    /// The loudness (LUFS) the take's sound is brought to (`audio.loudness`); nil: as recorded.
    package var loudness: Double?

    package init(device: String? = nil, seconds: Double, capture: CaptureRequest = CaptureRequest(),
                encoder: EncoderSettings = EncoderSettings(), stallTimeout: Double = 5, minimumSeconds: Double = 1,
                audio: AudioChoice = .auto) {
        self.audio = audio
        self.minimumSeconds = minimumSeconds
        self.device = device
        self.seconds = seconds
        self.capture = capture
        self.encoder = encoder
        self.stallTimeout = stallTimeout
    }

    /// What the kiosk's preview streams from `device`: small and slow, since it is only looked at.
    package static func preview(device: String?) -> ShotRequest {
        ShotRequest(device: device, seconds: 1, capture: CaptureRequest(size: FrameSize(width: 640, height: 360), frameRate: FrameRate(15)))
    }

    /// Disk room a shot of this length needs: the recording and its faststart copy, at the asked
    /// bitrate (4 Mbit/s for constant quality), plus a margin.
    package var bytesNeeded: Int64 {
        Int64(seconds * bytesPerSecond * 2) + (8 << 20)
    }

    /// Bytes a second of video takes at the asked bitrate (4 Mbit/s for constant quality).
    package var bytesPerSecond: Double {
        Double(encoder.bitrateKbps ?? 4000) * 1000 / 8
    }

    /// Rejects values no camera could honour, before anything is opened.
    package func validate() throws(RecorderError) {
        guard seconds.isFinite, seconds > 0 else {
            throw .shot(.secondsNotPositive(seconds))
        }
        guard seconds <= Self.maximumSeconds else {
            throw .shot(.secondsOverLimit(seconds))
        }
        if effect == .boomerang, !EffectOptions.boomerangRange.contains(seconds) {
            throw .shot(.boomerangSecondsOutOfRange(seconds))
        }
        if let size = capture.size {
            guard Self.sizeRange.contains(size.width), Self.sizeRange.contains(size.height) else {
                throw .shot(.sizeOutOfRange(size))
            }
        }
        if let rate = capture.frameRate {
            guard rate.value >= Double(Self.frameRateRange.lowerBound), rate.value <= Double(Self.frameRateRange.upperBound) else {
                throw .shot(.frameRateOutOfRange(rate))
            }
        }
        guard EncoderSettings.presets.contains(encoder.preset) else {
            throw .shot(.unknownPreset(encoder.preset, known: EncoderSettings.presets))
        }
        guard Self.crfRange.contains(encoder.crf) else {
            throw .shot(.crfOutOfRange(encoder.crf))
        }
        if let kbps = encoder.bitrateKbps, !Self.bitrateRange.contains(kbps) {
            throw .shot(.bitrateOutOfRange(kbps))
        }
    }
}
