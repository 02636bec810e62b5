import Testing
import Shooting
import VideoCapture

/// The camera's frames counted as they arrive: gaps in the frame count are drops, a pause of more
/// than a second (the camera closed and opened again) is no streaming time.
@Suite struct FrameTallyTests {
    @Test func dropsAndStreamingTimeComeFromTheFramesOwnStamps() {
        let tally = FrameTally()
        // 10 frames at 30 fps, sequence 0...9 with 3 and 4 missing.
        for (i, sequence) in [0, 1, 2, 5, 6, 7, 8, 9].enumerated() {
            tally.count(FrameStamp(timestampMicroseconds: 1_000_000 + Int64(sequence) * 33_333, sequence: UInt64(sequence)), nominalFPS: 30)
            _ = i
        }
        var counts = tally.counts
        #expect(counts.delivered == 8 && counts.dropped == 2 && counts.pacedFrames == 7 && counts.nominalFPS == 30)
        #expect(counts.streamingMicroseconds == 9 * 33_333)
        // The camera closed for 5 s, then opened again (its count starts over): no gap, no drop.
        tally.count(FrameStamp(timestampMicroseconds: 6_400_000, sequence: 0), nominalFPS: 15)
        tally.count(FrameStamp(timestampMicroseconds: 6_466_666, sequence: 1), nominalFPS: 15)
        counts = tally.counts
        #expect(counts.delivered == 10 && counts.dropped == 2 && counts.pacedFrames == 8 && counts.nominalFPS == 15)
        #expect(counts.streamingMicroseconds == 9 * 33_333 + 66_666)
    }
}
