import AudioCapture
import Foundation
import Testing
import SystemSupport
import MediaValues

/// The capture loop, end to end, on alsa-lib's own `null` PCM (no sound card needed). Its buffer
/// is always full and it stamps nothing useful, so it shows the clock-paced, estimated path; with
/// RECORDER_TEST_MICROPHONE naming a card's device the same test checks the driver-stamped path.
@Suite(.serialized) struct AlsaCaptureSourceTests {
    static func monotonicNow() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    @Test func aMissingCardIsNoSuchDevice() {
        do {
            let source = try AlsaCaptureSource(device: "hw:CARD=NoSuchCard,DEV=0")
            source.close()
            Issue.record("opened a card that does not exist: \(source.name)")
        } catch {
            guard case .noSuchDevice(let available) = error.kind else {
                Issue.record("expected noSuchDevice, got \(error)")
                return
            }
            #expect(available == AudioDevices.list().map(\.name))
            #expect(error.operation == "snd_pcm_open" && error.errno != 0)
            #expect(error.device == "hw:CARD=NoSuchCard,DEV=0", "\(error)")
        }
    }

    @Test func nullNegotiatesTheDefaults() throws {
        let source = try AlsaCaptureSource(device: "null")
        defer { source.close() }
        #expect(source.format == AudioFormat(sampleRate: 48000, channels: 2, sampleFormat: .s16))
        #expect(source.name == "null")
        // ~10 ms periods in a ~500 ms buffer.
        #expect(source.periodFrames == 480, "\(source.periodFrames)")
        #expect(source.bufferFrames == 24000, "\(source.bufferFrames)")
        let mono = try AlsaCaptureSource(device: "null", channels: 1)
        defer { mono.close() }
        #expect(mono.format.channels == 1)
        #expect(throws: AudioError.self) { try AlsaCaptureSource(device: "null", channels: 0) }
    }

    /// The device the capture test records from: alsa-lib's `null` PCM unless
    /// RECORDER_TEST_MICROPHONE names a real one (`hw:CARD=Loopback,DEV=1` under snd-aloop in the
    /// device VM), which then shows the driver-stamped path instead of the estimated one.
    static let microphone = ProcessInfo.processInfo.environment["RECORDER_TEST_MICROPHONE"] ?? "null"

    @Test func captureDeliversRealTimeSilenceWithContinuousTimestamps() throws {
        let device = Self.microphone
        let source = try AlsaCaptureSource(device: device)
        let startedAt = Self.monotonicNow()
        try source.start()
        let afterStart = Self.monotonicNow()
        // A second, not less: a capture thread kept off the CPU for a while on a busy machine
        // delivers late, and over 0.3 s 120 ms of that was 40% of the frames missing.
        usleep(1_000_000)
        let chunks = source.take(until: .max)
        let elapsed = Self.monotonicNow() - startedAt
        let rate = Int64(source.format.sampleRate)

        let frames = chunks.reduce(0) { $0 + $1.frames }
        // What real time produced, less at most the period not yet due and a late last wake-up.
        let expected = elapsed * rate / 1_000_000
        #expect(Int64(frames) <= expected + Int64(source.periodFrames), "\(frames) frames in \(elapsed) µs")
        #expect(Int64(frames) >= expected * 6 / 10, "\(frames) frames in \(elapsed) µs (\(expected) expected)")
        #expect(!chunks.isEmpty)
        for chunk in chunks {
            #expect(chunk.bytes.count == chunk.frames * source.format.bytesPerFrame)
            #expect(chunk.bytes.allSatisfy { $0 == 0 }, "\(device) captures silence")
        }
        // Stamps rise with the sound: each chunk starts about where the previous one ended.
        for (previous, next) in zip(chunks, chunks.dropFirst()) {
            #expect(next.timestampMicroseconds > previous.timestampMicroseconds)
            let end = previous.timestampMicroseconds + Int64(previous.frames) * 1_000_000 / rate
            #expect(abs(next.timestampMicroseconds - end) < 20_000, "\(previous.timestampMicroseconds)+\(previous.frames) -> \(next.timestampMicroseconds)")
        }
        if let first = chunks.first {
            // (between the clock read before start() and 100 ms after the one after it: the test's
            // thread can itself be held up inside start())
            #expect(first.timestampMicroseconds > startedAt - 100_000 && first.timestampMicroseconds < afterStart + 100_000,
                    "first stamp \(first.timestampMicroseconds - startedAt) µs after start (start() took \(afterStart - startedAt) µs)")
        }
        // null's buffer is always full and stamps nothing of its own; a card's driver stamps.
        #expect(source.timestampsAreEstimated == (device == "null"))
        #expect(source.overruns == 0)
        #expect(source.ended == nil)
        #expect(source.level == AudioLevel(peakDBFS: AudioLevel.silence, rmsDBFS: AudioLevel.silence))

        let closing = Self.monotonicNow()
        source.close()
        #expect(Self.monotonicNow() - closing < 500_000, "close waits for the capture thread, which wakes every 100 ms")
        source.close()
        // Nothing arrives once closed.
        _ = source.take(until: .max)
        usleep(50_000)
        #expect(source.take(until: .max).isEmpty)
    }

    @Test func closeWithoutStartAndStartAfterCloseAreHarmless() throws {
        let source = try AlsaCaptureSource(device: "null")
        source.close()
        try source.start()
        usleep(30_000)
        #expect(source.take(until: .max).isEmpty)
        source.close()
    }
}
