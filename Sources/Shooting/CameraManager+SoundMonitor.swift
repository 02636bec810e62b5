import AudioCapture
import Synchronization
import MediaValues

extension CameraManager {
    /// The sound's level for a meter: the shot's while recording; while idle, the microphone's
    /// (opened on the first ask, closed before a shot and when nobody asked for a while). nil when
    /// there is no sound to measure (sound off, no microphone, or it cannot be opened).
    package func soundLevel(_ choice: AudioChoice) async -> SoundLevel? {
        switch state {
        case .idle, .failed: break
        case .countdown, .starting, .finishing, .cameraMissing: return nil
        case .recording: return currentRecording?.latest.withLock { $0?.soundLevel }
        }
        lastSoundRequest = clock.now
        if soundMonitor == nil {
            if let failed = soundMonitorFailedAt, clock.now - failed < .seconds(5) { return nil }
            // Which microphone goes with the camera is read from sysfs and ALSA: off the actor too.
            let camera = cameraDescription
            let opened = await Self.onQueue { () -> Result<SoundMonitor, AudioError>? in
                guard let device = AudioSelector.describe(choice, camera: camera) else { return nil }
                do throws(AudioError) { return .success(try SoundMonitor.open(device)) } catch { return .failure(error) }
            }
            guard let opened else { return nil }
            guard case .success(let monitor) = opened else {
                soundMonitorFailedAt = clock.now
                return nil
            }
            // A shot may have started while it opened: it needs the microphone.
            switch state {
            case .idle, .failed:
                if soundMonitor == nil { soundMonitor = monitor } else { await Self.onQueue { monitor.close() } }
            default:
                await Self.onQueue { monitor.close() }
                return nil
            }
        }
        return soundMonitor?.level().map(SoundLevel.init)
    }

    func closeSoundMonitor() async {
        guard let monitor = soundMonitor else { return }
        soundMonitor = nil
        await Self.onQueue { monitor.close() }
    }
}
