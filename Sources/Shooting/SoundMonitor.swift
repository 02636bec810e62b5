import AudioCapture
import Synchronization
import SystemSupport
import VideoCapture
import MediaValues
import ShotValues

/// The kiosk's microphone while no shot is recording, for the page's level meter: opened when the
/// page asks for the level, read on each ask (the source captures on its own thread meanwhile),
/// and closed by `CameraManager` before a shot opens the microphone, or when nobody has asked for
/// a while.
final class SoundMonitor: Sendable {
    private struct State {
        var source: any AudioSource
        var meter: AudioLevelMeter
        var hold = AudioLevelHold()
        /// Every window measured since it opened, judged as a take is (`recorder devices --listen`).
        var check = SoundCheck()
        var closed = false
    }

    private let state: Mutex<State>
    /// The source's name, as the status shows it.
    let name: String

    private init(source: sending any AudioSource) {
        name = source.name
        let meter = AudioLevelMeter(format: source.format, windowFrames: source.format.sampleRate / 10)
        state = Mutex(State(source: source, meter: meter))
    }

    /// Opens and starts `device` ("test beep" for the built-in beep, else an ALSA name); blocking.
    static func open(_ device: String) throws(AudioError) -> SoundMonitor {
        if device == "test beep" {
            return SoundMonitor(source: ToneSource(origin: MonotonicClock.nowMicroseconds()))
        }
        let source = try AlsaCaptureSource(device: device)
        do { try source.start() } catch {
            source.close()
            throw error
        }
        return SoundMonitor(source: source)
    }

    /// The level of what arrived since the last ask (peak-held over half a second); never blocks.
    func level() -> AudioLevel? {
        state.withLock { state in
            guard !state.closed else { return nil }
            for chunk in state.source.take(until: MonotonicClock.nowMicroseconds()) {
                for level in state.meter.levels(of: chunk) {
                    state.hold.add(level)
                    state.check.add(level)
                }
            }
            return state.hold.held
        }
    }

    /// What every window since it opened says, judged as a take is: silent, clipping, or ok.
    func verdict() -> ShotAudio.Check {
        state.withLock { $0.check.verdict(endedEarly: false) }
    }

    /// Stops capturing and lets go of the device (waits for its thread: call off the actor).
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.source.close()
        }
    }
}
