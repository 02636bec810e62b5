#if canImport(Glibc)
import Glibc
#endif

/// How loud the last ~100 ms of sound were, for a level meter: the peak and the RMS of every
/// sample of every channel, in dBFS (0 is full scale; `silence` for digital silence).
package struct AudioLevel: Sendable, Hashable {
    /// The floor: what digital silence reads as, instead of minus infinity.
    package static let silence = -120.0

    /// The largest sample's magnitude.
    package var peakDBFS: Double
    /// The root mean square of every sample.
    package var rmsDBFS: Double

    /// From levels already in dBFS.
    package init(peakDBFS: Double, rmsDBFS: Double) {
        self.peakDBFS = peakDBFS
        self.rmsDBFS = rmsDBFS
    }

    /// From a peak and an RMS as fractions of full scale (0...1).
    package init(peak: Double, rms: Double) {
        self.init(peakDBFS: Self.decibels(peak), rmsDBFS: Self.decibels(rms))
    }

    /// 20·log10(fraction), clamped to `silence`.
    package static func decibels(_ fraction: Double) -> Double {
        fraction > 0 ? max(silence, 20 * log10(fraction)) : silence
    }
}
