import MediaEncoder
package import Settings
import VideoCapture
import MediaValues
package import Failures

/// A shot's capture and encoding settings as the edges set them, by name and number (the CLI's
/// flags), without the capture and media modules' types.
extension ShotRequest {
    /// The camera pixel formats by name (`--format`, `shoot.format`).
    package static var pixelFormatNames: [String] { PixelFormat.allCases.map(\.name) }

    /// x264's presets, fastest first (`--preset`, `shoot.preset`).
    package static var presets: [String] { EncoderSettings.presets }

    /// Whether `name` is a pixel format (`pixelFormatNames`).
    package static func isPixelFormat(_ name: String) -> Bool { PixelFormat(name: name) != nil }

    /// The camera's pixel format by name; nil ("auto"): the cheapest for the CPU.
    package var pixelFormatName: String? {
        get { capture.pixelFormat?.name }
        set { capture.pixelFormat = newValue.flatMap { PixelFormat(name: $0) } }
    }

    /// The camera's H.264 is copied as it is, not encoded (crf, bitrate and preset do nothing).
    package var copiesCameraH264: Bool { capture.pixelFormat == .h264 }

    /// The picture size asked of the camera; nil: its default (or the closest it offers).
    package var size: PictureSize? {
        get { capture.size.map { PictureSize(width: $0.width, height: $0.height) } }
        set { capture.size = newValue.map { FrameSize(width: $0.width, height: $0.height) } }
    }

    /// Frames per second asked of the camera (kept to a thousandth).
    package mutating func setFramesPerSecond(_ fps: Double) {
        capture.frameRate = FrameRate(Int((fps * 1000).rounded()), 1000).reduced
    }

    /// x264's preset.
    package var preset: String {
        get { encoder.preset }
        set { encoder.preset = newValue }
    }

    /// x264's constant rate factor (0-51).
    package var crf: Int {
        get { encoder.crf }
        set { encoder.crf = newValue }
    }

    /// An average bitrate in kbit/s instead of constant quality.
    package var bitrateKbps: Int? {
        get { encoder.bitrateKbps }
        set { encoder.bitrateKbps = newValue }
    }

    /// The branding frame from the PNG at `path` (`origin` names where it was given, for the words).
    package mutating func setOverlay(_ path: String, origin: String) throws(RecorderError) {
        encoder.overlay = try Self.overlay(path, origin: origin)
    }
}
