/// Frames per second as a fraction, as V4L2 and FFmpeg carry it (30000/1001 is not 29.97).
package struct FrameRate: Sendable, Hashable, Codable, CustomStringConvertible {
    package var numerator: Int
    package var denominator: Int

    package init(_ numerator: Int, _ denominator: Int = 1) {
        self.numerator = numerator
        self.denominator = max(denominator, 1)
    }

    /// Builds the rate from a V4L2 frame interval (seconds per frame).
    package init(interval numerator: UInt32, _ denominator: UInt32) {
        self.init(Int(denominator), Int(max(numerator, 1)))
    }

    package var value: Double { Double(numerator) / Double(denominator) }

    package var description: String {
        denominator == 1 ? "\(numerator)" : String(format2: value)
    }
}

extension String {
    init(format2 value: Double) {
        let scaled = (value * 100).rounded() / 100
        self = scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
    }
}

extension FrameRate {
    /// The same rate with the fraction reduced (30000/1000 becomes 30).
    package var reduced: FrameRate {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = max(gcd(numerator, denominator), 1)
        return FrameRate(numerator / g, denominator / g)
    }
}
