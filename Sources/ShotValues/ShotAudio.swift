package import MediaValues
/// The sound of a finished shot, as recorded in `shot.json` and a post's metadata.
package struct ShotAudio: Sendable, Codable, Equatable {
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
    /// Why the sound stopped before the picture did, if it did (an older file: its sentence).
    package var endedEarly: AudioStop?
    /// When the sound stopped, in seconds from the start of the shot, if it stopped early.
    package var endedAtSeconds: Double?
    /// What the take's sound was like, judged as it was recorded: a silent or clipped take is
    /// found at the booth, not after the event.
    package var check: Check?

    /// How loud the sound was and was made (`audio.loudness`); nil when it is off.
    package var loudness: Loudness?

    /// A take's loudness brought to the target: measured (EBU R128) before and after.
    package struct Loudness: Sendable, Codable, Equatable {
        package var targetLUFS: Double
        package var before: Measure?
        package var after: Measure?
        /// The gain applied (dB), and whether a limiter held the peaks under -1 dBTP.
        package var gainDB: Double?
        package var limited: Bool?
        /// Why the sound was left as recorded; nil when it was levelled.
        package var left: Left?

        package init(targetLUFS: Double, before: Measure? = nil, after: Measure? = nil, gainDB: Double? = nil, limited: Bool? = nil, left: Left? = nil) {
            (self.targetLUFS, self.before, self.after, self.gainDB, self.limited, self.left) = (targetLUFS, before, after, gainDB, limited, left)
        }

        /// Integrated loudness (LUFS) and true peak (dBTP).
        package struct Measure: Sendable, Codable, Hashable {
            package var integratedLUFS: Double
            package var truePeakDBTP: Double
            package init(integratedLUFS: Double, truePeakDBTP: Double) {
                self.integratedLUFS = (integratedLUFS * 10).rounded() / 10
                self.truePeakDBTP = (truePeakDBTP * 10).rounded() / 10
            }
        }

        package enum Left: Sendable, Codable, Equatable {
            /// The silent-take guard called the take silent.
            case silent
            /// Nothing over EBU R128's gate (-70 LUFS) to measure.
            case nothingToMeasure
            /// Levelling failed.
            case failure(fault: ShotFault)
            /// Levelling failed, as shots and posts made before failures were data say it (the
            /// media library's call and its words): read back, never written now.
            case failed(operation: String, detail: String)
        }
    }

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
                 overruns: Int, endedEarly: AudioStop? = nil, endedAtSeconds: Double? = nil) {
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
