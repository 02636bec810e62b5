/// H.264 settings; the defaults suit a kiosk: fast, good quality, a keyframe every second.
public struct EncoderSettings: Sendable, Hashable {
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    /// libx264 preset.
    public var preset: String = "veryfast"
    /// Constant rate factor (0-51, lower is better); ignored when `bitrateKbps` is set.
    public var crf: Int = 23
    /// Average bitrate in kbit/s instead of CRF.
    public var bitrateKbps: Int?
    /// Seconds between keyframes; also the length of each crash-safe fragment.
    public var keyframeIntervalSeconds: Double = 1

    public init(preset: String = "veryfast", crf: Int = 23, bitrateKbps: Int? = nil, keyframeIntervalSeconds: Double = 1) {
        self.preset = preset
        self.crf = crf
        self.bitrateKbps = bitrateKbps
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
    }
}
