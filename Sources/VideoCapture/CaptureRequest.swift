package import MediaValues

/// What the user asked for; nil fields mean "the default" (1280x720 at 30 fps, cheapest format).
package struct CaptureRequest: Sendable, Hashable {
    package static let defaultSize = FrameSize(width: 1280, height: 720)
    package static let defaultFrameRate = FrameRate(30)

    /// nil means `--format auto`.
    package var pixelFormat: PixelFormat?
    package var size: FrameSize?
    package var frameRate: FrameRate?
    /// The fastest rate the camera offers at the chosen size, whatever `frameRate` says (slow motion).
    package var fastest = false

    /// What `fastest` asks for: every rate a camera offers is at most this.
    package static let fastestFrameRate = FrameRate(240)

    package init(pixelFormat: PixelFormat? = nil, size: FrameSize? = nil, frameRate: FrameRate? = nil, fastest: Bool = false) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.frameRate = frameRate
        self.fastest = fastest
    }
}

/// The format, size and rate picked for a device, with each way it differs from the request.
package struct CaptureChoice: Sendable, Hashable {
    package var pixelFormat: PixelFormat
    package var size: FrameSize
    package var frameRate: FrameRate
    package var isEmulated: Bool
    package var differences: [Difference]

    /// A value asked for explicitly that the camera does not offer, and what it offers instead.
    package enum Difference: Sendable, Hashable {
        case closestSize(asked: FrameSize, offered: FrameSize)
        case closestRate(asked: FrameRate, offered: FrameRate, size: FrameSize)
    }
}
