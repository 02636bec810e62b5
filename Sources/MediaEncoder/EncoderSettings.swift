import MediaValues

/// H.264 settings; the defaults suit a kiosk: fast, good quality, a keyframe every second.
package struct EncoderSettings: Sendable, Hashable {
    package static let presets = X264Presets.all

    /// libx264 preset.
    package var preset: String = "veryfast"
    /// Constant rate factor (0-51, lower is better); ignored when `bitrateKbps` is set.
    package var crf: Int = 23
    /// Average bitrate in kbit/s instead of CRF.
    package var bitrateKbps: Int?
    /// Seconds between keyframes; also the length of each crash-safe fragment.
    package var keyframeIntervalSeconds: Double = 1
    /// AAC bits per second; nil: 128 kb/s for stereo, 96 kb/s for mono.
    package var audioBitRate: Int?
    /// A branding frame blended onto every picture (`--overlay`, `shoot.overlay`).
    package var overlay: PictureOverlay? = nil

    package init(preset: String = "veryfast", crf: Int = 23, bitrateKbps: Int? = nil, keyframeIntervalSeconds: Double = 1,
                 audioBitRate: Int? = nil, overlay: PictureOverlay? = nil) {
        self.overlay = overlay
        self.audioBitRate = audioBitRate
        self.preset = preset
        self.crf = crf
        self.bitrateKbps = bitrateKbps
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
    }
}
