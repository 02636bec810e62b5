/// The built-in test sound that goes with the test pattern: 0.1 s of a 1 kHz tone at every whole
/// second, starting exactly when the pattern flashes, silence between. Mono, 48 kHz, 16-bit.
///
/// Made on demand rather than captured: each `take(until:)` returns the samples from where the last
/// one stopped up to that time, so the sound follows the pattern's clock exactly, and a file made
/// from both shows how far the recording path moves one against the other.
package final class ToneSource: AudioSource {
    package let format = AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .s16)
    package let name = "test beep"
    package let overruns = 0
    package let ended: AudioEnd? = nil
    /// The capture time of second 0: the first `take` sets it to its `until` (the shot's first
    /// frame) unless it was set before.
    package var origin: Int64?
    /// Samples made so far, counted from `origin`.
    private var made: Int64 = 0
    package static let beepSeconds = 0.1
    package static let frequency = 1000.0

    package init(origin: Int64? = nil) {
        self.origin = origin
    }

    package func start() throws(AudioError) {}

    package func take(until timestampMicroseconds: Int64) -> [AudioChunk] {
        let origin = self.origin ?? timestampMicroseconds
        self.origin = origin
        let rate = Int64(format.sampleRate)
        let target = (timestampMicroseconds - origin) * rate / 1_000_000
        guard target > made else { return [] }
        let count = Int(target - made)
        var bytes = [UInt8](repeating: 0, count: count * 2)
        let beepSamples = Int64(Self.beepSeconds * Double(rate))
        let amplitude = 16_384.0  // -6 dBFS
        for i in 0..<count {
            let n = made + Int64(i)
            let inSecond = n % rate
            guard inSecond < beepSamples else { continue }
            let value = Int16(amplitude * _sin(2 * Double.pi * Self.frequency * Double(inSecond) / Double(rate)))
            let bits = UInt16(bitPattern: value)
            bytes[2 * i] = UInt8(bits & 0xff)
            bytes[2 * i + 1] = UInt8(bits >> 8)
        }
        let chunk = AudioChunk(bytes: bytes, frames: count, timestampMicroseconds: origin + made * 1_000_000 / rate)
        made = target
        return [chunk]
    }

    package func close() {}
}

#if canImport(Glibc)
import Glibc
package import MediaValues
private func _sin(_ x: Double) -> Double { Glibc.sin(x) }
#endif
