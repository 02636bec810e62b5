/// Frames per second as a fraction, as V4L2 and FFmpeg carry it (30000/1001 is not 29.97).
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int = 1) {
        self.numerator = numerator
        self.denominator = max(denominator, 1)
    }

    /// Builds the rate from a V4L2 frame interval (seconds per frame).
    public init(interval numerator: UInt32, _ denominator: UInt32) {
        self.init(Int(denominator), Int(max(numerator, 1)))
    }

    public var value: Double { Double(numerator) / Double(denominator) }

    public var description: String {
        denominator == 1 ? "\(numerator)" : String(format2: value)
    }
}

extension String {
    init(format2 value: Double) {
        let scaled = (value * 100).rounded() / 100
        self = scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }
}
