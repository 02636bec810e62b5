import AudioCapture

/// How loud the sound was over the last ~100 ms, for a level meter: the peak and the RMS in dBFS
/// (0 is full scale; `silence` for digital silence). The microphone's `AudioLevel` as the edges see it.
package struct SoundLevel: Sendable, Hashable, Codable {
    /// The floor: what digital silence reads as.
    package static let silence = AudioLevel.silence

    package var peakDBFS: Double
    package var rmsDBFS: Double

    package init(peakDBFS: Double, rmsDBFS: Double) {
        self.peakDBFS = peakDBFS
        self.rmsDBFS = rmsDBFS
    }

    init(_ level: AudioLevel) {
        self.init(peakDBFS: level.peakDBFS, rmsDBFS: level.rmsDBFS)
    }
}
