package import MediaValues

/// Frame rates a device offers at one size.
package enum RateOptions: Sendable, Hashable {
    case discrete([FrameRate])
    /// Any rate between the two (stepwise or continuous intervals).
    case range(min: FrameRate, max: FrameRate)
    /// The driver does not enumerate intervals; only trying will tell.
    case unknown

    package var summary: String {
        switch self {
        case .discrete(let rates): rates.map(\.description).joined(separator: ",")
        case .range(let lo, let hi): "\(lo)-\(hi)"
        case .unknown: "?"
        }
    }
}

/// One discrete picture size and the rates offered at it.
package struct SizeOption: Sendable, Hashable {
    package var size: FrameSize
    package var rates: RateOptions

    package init(size: FrameSize, rates: RateOptions) {
        self.size = size
        self.rates = rates
    }
}

/// Picture sizes a device offers for one pixel format.
package enum SizeOptions: Sendable, Hashable {
    case discrete([SizeOption])
    case range(min: FrameSize, max: FrameSize, step: FrameSize, rates: RateOptions)
    case unknown
}

/// One pixel format a device can deliver, with its sizes and rates.
package struct FormatCapability: Sendable, Hashable {
    /// nil when the fourcc is one this program cannot convert.
    package var pixelFormat: PixelFormat?
    package var fourcc: String
    package var label: String
    /// True when libv4l converts to this format in software (costs CPU).
    package var isEmulated: Bool
    package var sizes: SizeOptions

    package init(pixelFormat: PixelFormat?, fourcc: String, label: String, isEmulated: Bool, sizes: SizeOptions) {
        self.pixelFormat = pixelFormat
        self.fourcc = fourcc
        self.label = label
        self.isEmulated = isEmulated
        self.sizes = sizes
    }

    /// "640x480@30,60 1280x720@30" for listings.
    package var sizeSummary: String {
        switch sizes {
        case .discrete(let list): list.map { "\($0.size)@\($0.rates.summary)" }.joined(separator: " ")
        case .range(let lo, let hi, let step, let rates):
            "\(lo)-\(hi) step \(step.width)x\(step.height) @\(rates.summary)"
        case .unknown: "any size"
        }
    }
}
