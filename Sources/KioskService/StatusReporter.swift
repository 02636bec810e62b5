import FoundationEssentials
import Publishing
import Settings
import Shooting
import ShotValues
import SystemSupport
import KioskWords
package import KioskState
import Posting

/// `GET /api/status` and every status event: the camera's state and the shot, the outbox, free
/// space, the booth's settings, and where the guest is (consent, the question, in service or not).
/// The files it reads (the current shot, its posted marker, free space) are read on a helper
/// thread: every status request and event asks for them.
package final class StatusReporter: Sendable {
    package static let version = RecorderVersion.string
    /// This run of the kiosk, for telling its statuses from another run's (KioskStatus.run).
    package let run = String(UInt64.random(in: 0...UInt64.max), radix: 16)

    private let settings: KioskSettings
    private let manager: CameraManager
    private let drain: OutboxDrain
    private let enqueuer: PostEnqueuer
    private let guests: GuestCoordinator
    private let button: BoothButton?
    private let prompts: PromptDeck?

    init(settings: KioskSettings, manager: CameraManager, drain: OutboxDrain, enqueuer: PostEnqueuer, guests: GuestCoordinator,
         button: BoothButton?, prompts: PromptDeck?) {
        self.settings = settings
        self.manager = manager
        self.drain = drain
        self.enqueuer = enqueuer
        self.guests = guests
        self.button = button
        self.prompts = prompts
    }

    package func status() async -> KioskStatus {
        let camera = await manager.status()
        let previewRunning = await manager.previewRunning
        let (current, disk, soundSource) = await files(camera)
        var status = KioskStatus(
            state: camera.state.name, run: run, revision: camera.revision,
            camera: .init(device: camera.camera, present: camera.cameraPresent, previewRunning: previewRunning),
            sound: .init(choice: settings.audio.text, muted: settings.audio == .none, source: soundSource),
            progress: camera.progress.map {
                .init(elapsedSeconds: $0.elapsedSeconds, totalSeconds: $0.totalSeconds, frames: $0.frames, dropped: $0.dropped,
                      soundPeakDBFS: $0.soundLevel?.peakDBFS, soundRmsDBFS: $0.soundLevel?.rmsDBFS)
            },
            currentShot: current, outbox: Self.outbox(drain.status), disk: disk, booth: settings.booth,
            trigger: button?.status, shotSeconds: settings.shotRequest(effect: guests.effect).seconds, countdownSeconds: settings.countdown, version: Self.version,
            consent: guests.consentStatus, prompt: prompts?.current, service: guests.outOfService)
        status.booth.effect = guests.effect.rawValue
        Self.describe(camera, in: &status)
        return status
    }

    /// What the booth's token is shown of `status`: the last uploaded post only while it is the one
    /// its current guest shares (`KioskStatus.boothView`).
    package func boothView(_ status: KioskStatus) -> KioskStatus {
        status.boothView(sharedPost: { self.guests.sharesLink(of: $0) })
    }

    /// The countdown, and why the state is failed or camera-missing or the last shot was not kept:
    /// the operator's words and the guest's key.
    private static func describe(_ camera: CameraManager.Status, in status: inout KioskStatus) {
        var guestKey: GuestStrings.Key?
        switch camera.state {
        case .countdown(let n): status.countdown = n
        case .failed(let why): (status.message, guestKey) = (why.text(), camera.failure.map(GuestWording.key(for:)) ?? .notSaved)
        case .cameraMissing(let why): (status.message, guestKey) = (why.text(), .cameraUnavailable)
        case .idle:
            status.message = camera.lastShotDiscarded?.text()
            if status.message != nil { guestKey = .tooShort }
        default: break
        }
        status.guestMessage = guestKey.map { GuestStrings.text($0) }
        status.guestKey = guestKey?.rawValue
    }

    /// The current shot, free space and the sound's source, read on a helper thread.
    private func files(_ camera: CameraManager.Status) async -> (KioskStatus.CurrentShot?, KioskStatus.Disk, String?) {
        let workspace = settings.workspace, enqueuer = self.enqueuer, outboxRoot = drain.outbox.root
        let cameraLost = camera.lastShotCameraLost?.text(), audioChoice = settings.audio, cameraName = camera.camera
        let needed = settings.shotRequest().bytesNeeded
        return await BlockingWork.run { () -> (KioskStatus.CurrentShot?, KioskStatus.Disk, String?) in
            var current: KioskStatus.CurrentShot?
            if let shot = workspace.currentShot() {
                let playable = FileSystem.status(of: shot.videoPath) != nil
                let posted = enqueuer.marker(shot)
                current = KioskStatus.CurrentShot(
                    id: shot.id, createdAt: RFC3339.string(shot.createdAt), durationSeconds: shot.durationSeconds, frames: shot.frames,
                    framesDropped: shot.framesDropped, width: shot.width, height: shot.height, byteSize: shot.byteSize,
                    endedEarly: shot.endedEarly?.rawValue, cameraLost: cameraLost,
                    videoURL: playable ? "/api/shot/current/video.mp4?v=\(shot.id)" : nil, postedAs: posted?.id,
                    postDeletedAt: posted?.deletedAt, audio: shot.audio)
                current?.effect = shot.effect
                current?.effectFault = OperatorWords.effectFault(shot.effect)
                current?.loudnessFault = OperatorWords.loudnessFault(shot.audio?.loudness)
            }
            let space = DiskSpace.measure(workspace: workspace.root, outbox: outboxRoot, needed: needed)
            let disk = KioskStatus.Disk(workspaceFreeBytes: space.workspaceFree, outboxFreeBytes: space.outboxFree, low: space.short != nil)
            return (current, disk, AudioSelector.describe(audioChoice, camera: cameraName))
        }
    }

    private static func outbox(_ outbox: OutboxDrain.Status) -> KioskStatus.Outbox {
        KioskStatus.Outbox(depth: outbox.queued.count, queued: outbox.queued, uploading: outbox.uploading,
                           uploadingBytes: outbox.uploadingBytes, uploadingTotal: outbox.uploadingTotal,
                           lastError: outbox.lastFailure?.text(), retryInSeconds: outbox.retryInSeconds,
                           lastUploaded: outbox.lastUploaded?.id, lastUploadedURL: outbox.lastUploaded?.videoURL,
                           uploaded: outbox.uploadedCount)
    }

    /// systemd's STATUS= line and the journal's words for a state.
    /// The journal's line once the kiosk is ready: where its page is, its state, and, when it
    /// records the test pattern, that it does and why (`camera`: the camera manager's name of its
    /// source, "test pattern" when kiosk.device = testsrc, DeviceDiscovery's name when no camera
    /// was found), so a booth that said "ready" is never taken for one that films the guests.
    static func readyLine(addresses: [String], state: CameraManager.RecordState, camera: String) -> String {
        var line = "ready: \(addresses.joined(separator: " ")) (\(self.line(state))"
        // (CameraManager's names: "test pattern" asked for, "test pattern (no camera found)" by auto)
        if camera == "test pattern" {
            line += "; it records the test pattern, as kiosk.device = testsrc asks, not a camera"
        } else if camera.hasPrefix("test pattern") {
            line += "; no camera found: it records the test pattern (plug one in and restart, or set kiosk.device)"
        }
        return line + ")"
    }

    static func line(_ state: CameraManager.RecordState) -> String {
        switch state {
        case .idle: "idle, ready to shoot"
        case .countdown(let n): "counting down: \(n)"
        case .starting: "starting a shot"
        case .recording: "recording"
        case .finishing: "finishing a shot"
        case .failed(let why): "last shot failed: \(why.text())"
        case .cameraMissing(let why): "camera missing: \(why.text())"
        }
    }
}
