import MediaEncoder
import VideoCapture

extension ShotRequest {
    /// A shot as the configuration asks for it (`shoot.*`, `audio.*`: environment, then file, else
    /// the defaults): what `recorder shoot` starts from before its flags, and what every kiosk shot
    /// is, with the kiosk's own camera and length.
    package static func configured(_ configuration: RecorderConfiguration) throws(RecorderError) -> ShotRequest {
        let format = configuration.text("shoot.format") ?? "auto"
        let rate = try configuration.optionalNumber("shoot.fps")
        return ShotRequest(
            device: configuration.values["shoot.device"].flatMap { $0 == "auto" || $0.isEmpty ? nil : $0 },
            seconds: try configuration.number("shoot.seconds"),
            capture: CaptureRequest(pixelFormat: format == "auto" ? nil : PixelFormat(name: format),
                                    size: configuration.values["shoot.size"].flatMap(FrameSize.init(parsing:)),
                                    frameRate: rate.map { FrameRate(Int(($0 * 1000).rounded()), 1000).reduced }),
            encoder: EncoderSettings(preset: configuration.text("shoot.preset") ?? "veryfast", crf: Int(try configuration.number("shoot.crf")),
                                     bitrateKbps: try configuration.optionalNumber("shoot.bitrate").map { Int($0) },
                                     audioBitRate: try configuration.optionalNumber("audio.bitrate_kbps").map { Int($0) * 1000 }),
            minimumSeconds: try configuration.number("shoot.min_seconds"),
            audio: AudioChoice(configuration.text("audio.device") ?? "auto"))
    }
}
