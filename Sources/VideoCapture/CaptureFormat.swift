/// What a source delivers: pixel format, picture size, line stride and frame rate.
public struct CaptureFormat: Sendable, Hashable, CustomStringConvertible {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    /// Bytes per line of the first plane (0 for compressed formats).
    public var bytesPerLine: Int
    public var frameRate: FrameRate

    public init(pixelFormat: PixelFormat, width: Int, height: Int, bytesPerLine: Int? = nil, frameRate: FrameRate) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine ?? pixelFormat.minimumBytesPerLine(width: width)
        self.frameRate = frameRate
    }

    public var description: String { "\(pixelFormat.fourcc) \(width)x\(height) @ \(frameRate) fps" }
}

/// A picture size in pixels, parsed from `WIDTHxHEIGHT`.
public struct FrameSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    public var pixels: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}
