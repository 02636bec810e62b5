import AudioCapture
package import MediaValues
package import ShotValues

/// One microphone opened to be listened to for a moment (`recorder doctor`): its level while it
/// is open, then what all of it sounded like, judged as a take is (silent, clipping, ok).
package final class MicrophoneMeter: Sendable {
    private let monitor: SoundMonitor

    private init(_ monitor: SoundMonitor) {
        self.monitor = monitor
    }

    /// Opens and starts the ALSA capture device `name`; blocking. Why not, when it cannot be.
    package static func open(_ name: String) -> Result<MicrophoneMeter, DeviceTrouble> {
        do throws(AudioError) {
            return .success(MicrophoneMeter(try SoundMonitor.open(name)))
        } catch {
            return .failure(DeviceTrouble(error))
        }
    }

    /// The level of what arrived since the last ask (peak-held over half a second); never blocks.
    /// Asked now and then while listening, so what arrives is measured as it comes.
    package func level() -> SoundLevel? {
        monitor.level().map(SoundLevel.init)
    }

    /// Every ~100 ms window since it opened, judged as a take is.
    package func verdict() -> ShotAudio.Check {
        _ = monitor.level() // (what arrived since the last ask counts too; the level itself is not needed)
        return monitor.verdict()
    }

    /// Stops capturing and lets the device go (waits for its thread: call off an actor).
    package func close() {
        monitor.close()
    }
}
