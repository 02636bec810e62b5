import SystemSupport
import VideoCapture
import Failures

extension CameraManager {
    // MARK: - Camera presence and preview

    /// Looks for the configured camera (one open and VIDIOC_QUERYCAP, on a thread) and moves
    /// between idle and camera-missing. Skipped while the camera is in use: a lost camera shows
    /// up there as a failed read.
    package func checkCamera() async {
        switch state {
        case .countdown, .starting, .recording, .finishing: return
        case .idle, .failed, .cameraMissing: break
        }
        if previewSession.map({ !$0.isFinished }) == true { return }
        let device = self.device
        let found = await probe()
        // The state may have moved on while the probe ran.
        switch (state, found) {
        case (.countdown, _), (.starting, _), (.recording, _), (.finishing, _):
            return
        case (.cameraMissing, .present(let name)):
            cameraDescription = name
            setState(.idle)
        case (.idle, .missing(let why)), (.failed, .missing(let why)):
            cameraDescription = device ?? "auto"
            await closePreview()
            setState(.cameraMissing(.shot(.cameraMissing(why: why))))
        case (_, .present(let name)):
            cameraDescription = name
        case (_, .missing):
            break
        }
    }

    /// Whether the configured source can be opened now (one open + VIDIOC_QUERYCAP, on the queue).
    func probe() async -> CameraPresence {
        let device = self.device
        if let device, device == SourceSelector.testPattern { return .present("test pattern") }
        if let device, device.hasPrefix("y4m:") || device.hasSuffix(".y4m") {
            // A Y4M file (or pipe) stands in for a camera: there while the file is (a capture
            // rig's pipe that went away is a camera unplugged).
            let path = device.hasPrefix("y4m:") ? String(device.dropFirst(4)) : device
            return await Self.onQueue { FileSystem.status(of: path) != nil ? .present(device) : .missing("\(path) is not there") }
        }
        return await Self.onQueue { DeviceDiscovery.probe(device) }
    }

    /// Notes that somebody wants the live preview, starting the camera when it is idle.
    package func wantPreview(request: ShotRequest) {
        lastPreviewRequest = clock.now
        guard case .idle = state else { return }
        if let session = previewSession, !session.isFinished { return }
        previewSession = PreviewSession(request: request, tap: preview, tally: frames)
    }

    /// Closes the preview camera when nobody asked for a picture for `idleSeconds`.
    package func expirePreview(idleSeconds: Double) async {
        if let last = lastSoundRequest, soundMonitor != nil, clock.now - last >= .seconds(idleSeconds) {
            await closeSoundMonitor()
        }
        guard let last = lastPreviewRequest, previewSession != nil else { return }
        if clock.now - last >= .seconds(idleSeconds) || previewSession?.isFinished == true {
            await closePreview()
        }
    }
    /// Whether the preview camera is streaming.
    package var previewRunning: Bool { previewSession.map { !$0.isFinished } ?? false }

    func closePreview() async {
        guard let session = previewSession else { return }
        previewSession = nil
        await Self.onQueue { session.stopAndWait() }
    }
}
