import AudioCapture

extension SoundCheck {
    /// Adds a level as a meter showed it (the kiosk's, while it listens for `recorder doctor`'s
    /// checks on the operator page).
    package mutating func add(_ level: SoundLevel) {
        add(AudioLevel(peakDBFS: level.peakDBFS, rmsDBFS: level.rmsDBFS))
    }
}
