import Testing
import AudioCapture

/// The test beep: exactly as much sound as the time asked, a beep in the first 0.1 s of every
/// second from the origin, silence between.
@Suite struct ToneSourceTests {
    static func samples(_ chunks: [AudioChunk]) -> [Int16] {
        chunks.flatMap { chunk in
            stride(from: 0, to: chunk.frames * 2, by: 2).map { Int16(bitPattern: UInt16(chunk.bytes[$0]) | UInt16(chunk.bytes[$0 + 1]) << 8) }
        }
    }

    @Test func makesExactlyTheSoundUpToTheTimeAsked() {
        let tone = ToneSource()
        #expect(tone.take(until: 5_000_000).isEmpty)  // the first call sets the origin
        let first = tone.take(until: 5_500_000)
        #expect(first.map(\.frames).reduce(0, +) == 24_000)
        #expect(first.first?.timestampMicroseconds == 5_000_000)
        let second = tone.take(until: 6_250_000)
        #expect(second.map(\.frames).reduce(0, +) == 36_000)
        #expect(second.first?.timestampMicroseconds == 5_500_000)
        #expect(tone.take(until: 6_250_000).isEmpty)
    }

    @Test func beepsInTheFirstTenthOfEverySecond() {
        let tone = ToneSource(origin: 0)
        let all = Self.samples(tone.take(until: 2_000_000))
        #expect(all.count == 96_000)
        func loudest(_ range: Range<Int>) -> Int { all[range].map { abs(Int($0)) }.max() ?? 0 }
        // -6 dBFS: half of full scale.
        #expect(loudest(0..<4_800) > 16_000 && loudest(0..<4_800) <= 16_384)
        #expect(loudest(4_800..<48_000) == 0)
        #expect(loudest(48_000..<52_800) > 16_000)
        #expect(loudest(52_800..<96_000) == 0)
    }
}
