import AudioCapture
import Foundation
import Testing

@Suite struct AudioLevelTests {
    static func level(_ samples: [Int16], channels: Int = 1) -> AudioLevel? {
        var meter = AudioLevelMeter(format: AudioFormat(sampleRate: 48000, channels: channels, sampleFormat: .s16),
                                    windowFrames: samples.count / channels)
        return samples.withUnsafeBytes { meter.add($0, frames: samples.count / channels) }
    }

    @Test func fullScaleIsZeroAndHalfIsMinusSix() throws {
        let full = try #require(Self.level([Int16](repeating: -32768, count: 480)))
        #expect(abs(full.peakDBFS) < 0.01 && abs(full.rmsDBFS) < 0.01)
        let half = try #require(Self.level((0..<480).map { $0 % 2 == 0 ? 16384 : -16384 }, channels: 2))
        #expect(abs(half.peakDBFS + 6.02) < 0.01 && abs(half.rmsDBFS + 6.02) < 0.01)
    }

    @Test func aSineReadsThreeDecibelsBelowItsPeak() throws {
        let sine = (0..<4800).map { Int16(32767 * sin(Double($0) * 2 * .pi * 1000 / 48000)) }
        let level = try #require(Self.level(sine))
        #expect(abs(level.peakDBFS) < 0.01)
        #expect(abs(level.rmsDBFS + 3.01) < 0.02, "\(level)")
    }

    @Test func silenceIsTheFloorAndALevelNeedsAWholeWindow() {
        #expect(Self.level([Int16](repeating: 0, count: 480)) == AudioLevel(peakDBFS: AudioLevel.silence, rmsDBFS: AudioLevel.silence))
        var meter = AudioLevelMeter(format: AudioFormat(sampleRate: 48000, channels: 1, sampleFormat: .float32), windowFrames: 4800)
        let floats: [Float] = Array(repeating: 0.5, count: 4000)
        #expect(floats.withUnsafeBytes { meter.add($0, frames: 4000) } == nil)
        let level = floats.withUnsafeBytes { meter.add($0, frames: 4000) }
        #expect(level.map { abs($0.peakDBFS + 6.02) < 0.01 } == true)
    }
}
