package import MediaValues

/// What a source delivers: pixel format, picture size, line stride and frame rate.
package struct CaptureFormat: Sendable, Hashable, CustomStringConvertible {
    package var pixelFormat: PixelFormat
    package var width: Int
    package var height: Int
    /// Bytes per line of the first plane (0 for compressed formats).
    package var bytesPerLine: Int
    package var frameRate: FrameRate

    package init(pixelFormat: PixelFormat, width: Int, height: Int, bytesPerLine: Int? = nil, frameRate: FrameRate) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine ?? pixelFormat.minimumBytesPerLine(width: width)
        self.frameRate = frameRate
    }

    package var description: String { "\(pixelFormat.fourcc) \(width)x\(height) @ \(frameRate) fps" }
}
