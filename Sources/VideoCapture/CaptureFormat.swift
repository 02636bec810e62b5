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

/// A picture size in pixels, parsed from `WIDTHxHEIGHT`.
package struct FrameSize: Sendable, Hashable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    package var pixels: Int { width * height }
    package var description: String { "\(width)x\(height)" }
}
