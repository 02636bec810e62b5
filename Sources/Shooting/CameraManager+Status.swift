import Synchronization
package import Failures

extension CameraManager {
    /// The record state as callers see it.
    package enum RecordState: Sendable, Equatable {
        case idle
        /// A shot will start when the count reaches zero.
        case countdown(remaining: Int)
        case starting
        case recording
        case finishing
        /// The last shot failed (why, for the edges to word); a new one may be tried.
        case failed(RecorderError)
        /// The configured camera cannot be opened (why: what the probe found, or how a shot lost
        /// it); the manager watches for it to come back.
        case cameraMissing(RecorderError)

        /// A short name for logs, metrics and the API.
        package var name: String {
            switch self {
            case .idle: "idle"
            case .countdown: "countdown"
            case .starting: "starting"
            case .recording: "recording"
            case .finishing: "finishing"
            case .failed: "failed"
            case .cameraMissing: "camera-missing"
            }
        }

        /// Whether a shot is under way (counting down, starting, recording or finishing).
        package var isBusy: Bool {
            switch self {
            case .countdown, .starting, .recording, .finishing: true
            case .idle, .failed, .cameraMissing: false
            }
        }
    }

    /// What happened, for whoever watches the manager (the kiosk's event stream and metrics).
    package enum Event: Sendable {
        case state(RecordState)
        case shotFinished(ShotResult)
        case shotFailed(RecorderError)
        /// A stop ended the shot before its first frame or under the minimum length: nothing was
        /// kept, nothing failed, and the previous shot is still the current one.
        case shotDiscarded(RecorderError)
    }

    package var recordState: RecordState {
        switch state {
        case .idle: .idle
        case .countdown(_, let remaining): .countdown(remaining: remaining)
        case .starting: .starting
        case .recording: .recording
        case .finishing: .finishing
        case .failed(let error): .failed(error)
        case .cameraMissing(let why): .cameraMissing(why)
        }
    }

    /// Everything the kiosk's status page shows about the camera.
    package struct Status: Sendable {
        package var state: RecordState
        /// Which camera: a device path, or the test pattern when there is none.
        package var camera: String
        package var cameraPresent: Bool
        package var progress: ShotProgress?
        package var lastShotCameraLost: RecorderError?
        /// Why the last shot was not kept (stopped too early), until the next one starts.
        package var lastShotDiscarded: RecorderError?
        /// The typed failure while the state is failed, for the edges to word it.
        package var failure: RecorderError?
        package var posting: Bool
        /// The manager's state changes so far when this was taken: higher is newer.
        package var revision: Int
    }

    package func status() -> Status {
        let present: Bool
        if case .cameraMissing = state { present = false } else { present = true }
        var failure: RecorderError?
        if case .failed(let error) = state { failure = error }
        return Status(state: recordState, camera: cameraDescription, cameraPresent: present,
                      progress: recordState.isBusy ? currentRecording?.latest.withLock { $0 } : nil,
                      lastShotCameraLost: lastResult?.cameraLost,
                      lastShotDiscarded: lastDiscarded, failure: failure, posting: posting,
                      revision: revision)
    }
}
