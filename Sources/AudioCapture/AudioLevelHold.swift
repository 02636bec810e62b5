/// A meter's peak hold: the loudest of the last few levels (five 100 ms windows: half a second),
/// so a short sound is still on the meter when a page reads it a few times a second.
package struct AudioLevelHold: Sendable {
    private var recent: [AudioLevel] = []
    private let windows: Int

    package init(windows: Int = 5) {
        self.windows = max(windows, 1)
    }

    /// Adds the newest window's level; returns the held one.
    @discardableResult
    package mutating func add(_ level: AudioLevel) -> AudioLevel {
        recent = Array((recent + [level]).suffix(windows))
        return held!
    }

    /// The loudest peak and RMS of the held windows; nil before the first.
    package var held: AudioLevel? {
        guard let peak = recent.map(\.peakDBFS).max(), let rms = recent.map(\.rmsDBFS).max() else { return nil }
        return AudioLevel(peakDBFS: peak, rmsDBFS: rms)
    }
}
