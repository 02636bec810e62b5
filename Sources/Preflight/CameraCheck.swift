package import Shooting
package import SystemSupport
import VideoCapture
package import MediaValues
package import PreflightValues

/// The camera the kiosk uses (`kiosk.device`): outside the kiosk it is opened as a shot opens it
/// until its first frame (`CameraProbe`); inside, the kiosk's own preview is looked at instead,
/// so a shot under way keeps its camera.
package enum CameraCheck {
    package static let setting = "kiosk.device"

    /// Opens the camera (blocking).
    package static func look(_ request: ShotRequest, stop: StopSignal) -> PreflightFinding {
        switch CameraProbe.look(request, stop: stop) {
        case .works(let facts): .cameraWorks(facts: facts)
        case .noCamera: .noCamera(setting: setting)
        case .notACamera(let value): .testPattern(setting: setting, value: value)
        case .unusable(let device, let trouble): .cameraUnusable(device: device, trouble: trouble)
        }
    }

    /// The kiosk's camera, through `manager`'s preview (started as a viewer starts it, when idle)
    /// or the shot it records; waits for a picture until `stop` (or the task is cancelled).
    package static func live(_ manager: CameraManager, preview request: ShotRequest, configured: String?, stop: StopSignal) async -> PreflightFinding {
        let status = await manager.status()
        if let configured, configured == SourceSelector.testPattern || configured.hasPrefix("y4m:") || configured.hasSuffix(".y4m") {
            return .testPattern(setting: setting, value: configured)
        }
        if status.camera.hasPrefix("test pattern") { return .noCamera(setting: setting) }
        guard status.cameraPresent else { return .cameraUnusable(device: status.camera, trouble: .notThere) }
        let tap = manager.preview
        // Frames the shot under way had counted at the first look: more later shows the camera gives them.
        var framesSeen: Int?
        while !stop.isSet && !Task.isCancelled {
            // (the count first: a picture taken between the look and the wait still wakes it)
            let seen = tap.changed.generation
            let state = await manager.recordState
            if !state.isBusy { await manager.wantPreview(request: request) }
            if let picture = tap.picture(maximumAge: 2) {
                return .cameraLive(device: status.camera, width: picture.format.width, height: picture.format.height,
                                   pictureAgeMilliseconds: Int((MonotonicClock.nowMicroseconds() - picture.copiedAtMicroseconds) / 1000),
                                   recording: state.isBusy)
            }
            // A shot that started while nobody watched the preview gives it no pictures: its own
            // count of frames is what shows the camera works.
            if state.isBusy, let progress = await manager.status().progress {
                if let first = framesSeen, progress.frames > first {
                    return .cameraRecording(device: status.camera, frames: progress.frames, dropped: progress.dropped)
                }
                if framesSeen == nil { framesSeen = progress.frames }
            }
            await tap.changed.wait(after: seen, timeout: .milliseconds(200))
        }
        return .cameraNoPicture(device: status.camera, state: await manager.recordState.name)
    }
}
