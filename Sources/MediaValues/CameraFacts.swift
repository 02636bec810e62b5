/// What a camera gave when opened as a shot opens it: who it is, the format, size and rate it
/// settled on, the formats it offers, and how long its first frame took.
package struct CameraFacts: Sendable, Equatable, Codable {
    package var device: String
    package var card: String
    package var driver: String
    /// recorder's name for the pixel format the shot would take ("YUYV", "MJPEG").
    package var format: String
    package var width: Int
    package var height: Int
    package var framesPerSecond: Double
    /// Converted by libv4l in software (costs CPU).
    package var emulated: Bool
    /// Every format the camera offers that recorder reads.
    package var formats: [String]
    /// From opening the device to its first frame.
    package var firstFrameMilliseconds: Int

    package init(device: String, card: String, driver: String, format: String, width: Int, height: Int, framesPerSecond: Double,
                 emulated: Bool, formats: [String], firstFrameMilliseconds: Int) {
        (self.device, self.card, self.driver, self.format) = (device, card, driver, format)
        (self.width, self.height, self.framesPerSecond, self.emulated) = (width, height, framesPerSecond, emulated)
        (self.formats, self.firstFrameMilliseconds) = (formats, firstFrameMilliseconds)
    }
}
