/// The sound of a finished shot, as recorded in `shot.json` and a post's metadata.
package struct ShotAudio: Sendable, Codable, Hashable {
    /// "aac".
    package var codec: String
    package var sampleRate: Int
    package var channels: Int
    package var bitRate: Int
    /// What it was recorded from: "hw:CARD=C920,DEV=0 (HD Pro Webcam C920)", "test beep".
    package var source: String
    /// Seconds of sound in the file.
    package var seconds: Double
    /// Times the sound card's buffer overflowed because it was not read in time; each gap was
    /// filled with silence so the sound after it stays in sync.
    package var overruns: Int
    /// Why the sound stopped before the picture did ("the microphone was lost ..."), if it did.
    package var endedEarly: String?
    /// When the sound stopped, in seconds from the start of the shot, if it stopped early.
    package var endedAtSeconds: Double?
    /// What the take's sound was like, judged as it was recorded: a silent or clipped take is
    /// found at the booth, not after the event.
    package var check: Check?

    /// The silent-take guard's verdict on a take's sound.
    package struct Check: Sendable, Codable, Hashable {
        /// "ok"; "silent": nothing louder than `silentBelowDBFS` (a muted or dead microphone);
        /// "clipping": at full scale for most of the take (a gain set too high); "ended-early":
        /// the sound stopped before the picture.
        package var result: String
        /// The loudest ~100 ms window's peak.
        package var loudestDBFS: Double
        /// Of the ~100 ms windows, the share (0-100) whose peak reached full scale.
        package var clippedPercent: Double

        package init(result: String, loudestDBFS: Double, clippedPercent: Double) {
            self.result = result
            self.loudestDBFS = loudestDBFS
            self.clippedPercent = clippedPercent
        }

    }

    package init(codec: String, sampleRate: Int, channels: Int, bitRate: Int, source: String, seconds: Double,
                 overruns: Int, endedEarly: String? = nil, endedAtSeconds: Double? = nil) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate
        self.source = source
        self.seconds = seconds
        self.overruns = overruns
        self.endedEarly = endedEarly
        self.endedAtSeconds = endedAtSeconds
    }
}
