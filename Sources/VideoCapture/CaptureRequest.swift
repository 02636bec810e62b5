/// What the user asked for; nil fields mean "the default" (1280x720 at 30 fps, cheapest format).
public struct CaptureRequest: Sendable, Hashable {
    public static let defaultSize = FrameSize(width: 1280, height: 720)
    public static let defaultFrameRate = FrameRate(30)

    /// nil means `--format auto`.
    public var pixelFormat: PixelFormat?
    public var size: FrameSize?
    public var frameRate: FrameRate?

    public init(pixelFormat: PixelFormat? = nil, size: FrameSize? = nil, frameRate: FrameRate? = nil) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.frameRate = frameRate
    }
}

/// The format, size and rate picked for a device, with a note for each way it differs from the request.
public struct CaptureChoice: Sendable, Hashable {
    public var pixelFormat: PixelFormat
    public var size: FrameSize
    public var frameRate: FrameRate
    public var isEmulated: Bool
    public var notes: [String]
}
