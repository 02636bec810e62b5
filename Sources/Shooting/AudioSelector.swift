import AudioCapture
import VideoCapture
import MediaValues
import ShotValues

/// Opens the sound source an `AudioChoice` names, for the picture source already open.
package enum AudioSelector {
    /// What a shot from `camera` (a device path, "testsrc", or `DeviceDiscovery.testPatternName`)
    /// would take its sound from, without opening anything: nil for none (sound off, or a camera
    /// without a microphone of its own).
    package static func describe(_ choice: AudioChoice, camera: String) -> String? {
        switch choice {
        case .none: return nil
        case .beep: return "test beep"
        case .device(let name): return name
        case .auto:
            // The kiosk names the pattern "test pattern", or "test pattern (no camera found)".
            if camera == SourceSelector.testPattern || camera.hasPrefix("test pattern") { return "test beep" }
            guard camera.hasPrefix("/dev/") else { return nil }
            return AudioDevices.microphone(pairedWithCamera: camera)?.name
        }
    }

    /// nil when the shot is silent; `notes` says why when the user might have expected sound.
    static func open(_ choice: AudioChoice, for video: any FrameSource) throws(AudioError) -> (source: (any AudioSource)?, notes: [ShotNote]) {
        switch choice {
        case .none:
            return (nil, [])
        case .beep:
            return (ToneSource(), [])
        case .device(let name):
            return (try AlsaCaptureSource(device: name), [])
        case .auto:
            if video is TestPatternSource { return (ToneSource(), []) }
            guard let camera = video as? V4L2CaptureSource else {
                return (nil, [.noSoundFromFile])
            }
            guard let microphone = AudioDevices.microphone(pairedWithCamera: camera.path) else {
                return (nil, [.noMicrophone(camera: camera.path)])
            }
            do {
                return (try AlsaCaptureSource(device: microphone.name), [])
            } catch {
                // The camera's own microphone, found but not usable: the picture is still wanted.
                return (nil, [.microphoneUnopenable(fault: .microphone(error: error))])
            }
        }
    }
}
