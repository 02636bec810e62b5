import AudioCapture
import Foundation
@testable import Shooting
import Testing
import ShotValues

/// The silent-take guard's verdict from real sample data measured by the level meter, window by window.
@Suite struct SoundCheckTests {
    /// Two seconds of mono 48 kHz samples made by `sample(i)`, through the meter into a check.
    static func check(endedEarly: Bool = false, _ sample: (Int) -> Int16) -> ShotAudio.Check {
        let format = AudioFormat(sampleRate: 48000, channels: 1, sampleFormat: .s16)
        var meter = AudioLevelMeter(format: format, windowFrames: 4800)
        var guardian = SoundCheck()
        let samples = (0..<96_000).map(sample)
        samples.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: samples.count, by: 480) {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[(start * 2)..<((start + 480) * 2)])
                if let level = meter.add(slice, frames: 480) { guardian.add(level) }
            }
        }
        return guardian.verdict(endedEarly: endedEarly)
    }

    @Test func digitalSilenceAndARoomsHissAreSilent() {
        #expect(Self.check { _ in 0 }.result == "silent")
        // Noise at about -60 dBFS: a quiet room through a microphone nobody speaks into.
        let hiss = Self.check { i in Int16((i * 7919) % 65 - 32) }
        #expect(hiss.result == "silent" && hiss.loudestDBFS < -45, "\(hiss)")
    }

    @Test func speechLevelIsOkAndOneShortWordIsEnough() {
        #expect(Self.check { i in Int16(3000 * sin(Double(i) * 2 * .pi * 220 / 48000)) }.result == "ok")
        // Silence but for a 0.2 s word at -20 dBFS: heard.
        let word = Self.check { i in (48_000..<57_600).contains(i) ? Int16(3277 * sin(Double(i) * 2 * .pi * 300 / 48000)) : 0 }
        #expect(word.result == "ok" && abs(word.loudestDBFS + 20) < 0.5, "\(word)")
    }

    @Test func fullScaleForMostOfTheTakeIsClipping() {
        let square = Self.check { i in (i / 100) % 2 == 0 ? Int16.max : Int16.min }
        #expect(square.result == "clipping" && square.clippedPercent == 100, "\(square)")
        // One loud clap is not clipping for most of it.
        let clap = Self.check { i in i < 2400 ? Int16.max : Int16(2000 * sin(Double(i) * 2 * .pi * 220 / 48000)) }
        #expect(clap.result == "ok" && clap.clippedPercent < 10, "\(clap)")
    }

    @Test func soundThatStoppedEarlyIsSaidFirst() {
        #expect(Self.check(endedEarly: true) { _ in 0 }.result == "ended-early")
        let silent = Self.check { _ in 0 }
        #expect(SoundCheck.note(silent) == .silentTake(loudestDBFS: silent.loudestDBFS, silentBelowDBFS: -45))
        #expect(SoundCheck.note(Self.check { i in Int16(3000 * sin(Double(i) * 0.03)) }) == nil)
    }
}
