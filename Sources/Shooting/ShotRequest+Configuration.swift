import Glibc
package import MediaEncoder
import SystemSupport
import VideoCapture
package import Settings
package import MediaValues
package import Failures
package import ShotValues

extension ShotRequest {
    /// A shot as the configuration asks for it (`shoot.*`, `audio.*`: environment, then file, else
    /// the defaults): what `recorder shoot` starts from before its flags, and what every kiosk shot
    /// is, with the kiosk's own camera and length.
    package static func configured(_ configuration: RecorderConfiguration) throws(RecorderError) -> ShotRequest {
        let format = configuration.text("shoot.format") ?? "auto"
        let rate = try configuration.optionalNumber("shoot.fps")
        var request = ShotRequest(
            device: configuration.values["shoot.device"].flatMap { $0 == "auto" || $0.isEmpty ? nil : $0 },
            seconds: try configuration.number("shoot.seconds"),
            capture: CaptureRequest(pixelFormat: format == "auto" ? nil : PixelFormat(name: format),
                                    size: configuration.values["shoot.size"].flatMap(FrameSize.init(parsing:)),
                                    frameRate: rate.map { FrameRate(Int(($0 * 1000).rounded()), 1000).reduced }),
            encoder: try encoderSettings(configuration,
                                         overlay: try overlay(configuration.text("shoot.overlay"), origin: configuration.origin("shoot.overlay"))),
            minimumSeconds: try configuration.number("shoot.min_seconds"),
            audio: AudioChoice(configuration.text("audio.device") ?? "auto"))
        request.effectOptions = try EffectOptions.configured(configuration)
        request.loudness = try loudness(configuration)
        request.choose(ClipEffect(rawValue: configuration.text("shoot.effect") ?? "none") ?? .none)
        if let sound = request.effectOptions.sound {
            guard Posix.allows(sound, R_OK), FileSystem.status(of: sound)?.isDirectory != true else {
                throw .shot(.effectSoundMissing(path: sound, origin: configuration.origin("effect.sound")))
            }
        }
        return request
    }

    /// The shots' encoding (`shoot.preset`, `shoot.crf`, `shoot.bitrate`, `audio.bitrate_kbps`):
    /// what every shot is recorded with, and what a reel or a post's intro and outro are made with
    /// (those without the branding frame: the shots already carry theirs).
    package static func encoderSettings(_ configuration: RecorderConfiguration, overlay: PictureOverlay? = nil) throws(RecorderError) -> EncoderSettings {
        EncoderSettings(preset: configuration.text("shoot.preset") ?? "veryfast", crf: Int(try configuration.number("shoot.crf")),
                        bitrateKbps: try configuration.optionalNumber("shoot.bitrate").map { Int($0) },
                        audioBitRate: try configuration.optionalNumber("audio.bitrate_kbps").map { Int($0) * 1000 },
                        overlay: overlay)
    }

    /// The branding frame at `path` (nil or empty: none), read and decoded now, before anything is
    /// recorded: a missing, unreadable file or a directory is 66, one that is not a PNG or does
    /// not decode 65; `origin`: where the setting came from ("the command line" for `--overlay`).
    package static func overlay(_ path: String?, origin: String) throws(RecorderError) -> PictureOverlay? {
        guard let path, !path.isEmpty else { return nil }
        guard Posix.allows(path, F_OK) else { throw .shot(.overlayMissing(path: path, origin: origin)) }
        if FileSystem.status(of: path)?.isDirectory == true { throw .shot(.overlayIsDirectory(path: path, origin: origin)) }
        do throws(MediaError) {
            return try PictureOverlay(path: path)
        } catch {
            throw .shot(.overlayUnusable(path: path, origin: origin, error))
        }
    }
}
