import AudioCapture
import Dispatch
import FoundationEssentials
import Synchronization
package import SystemSupport
import VideoCapture
package import Settings
import MediaValues
package import Failures
package import ShotValues

/// Owns the camera for the life of the process: one shot at a time, its stop signal, the record
/// state, the live preview and whether the camera is there at all; while a post is being queued it
/// holds the current shot still (`holdingCurrentShot`).
///
/// The state is a private enum that every method switches on, so an illegal transition (a second
/// shoot while one records, a stop with nothing recording) is answered, never half-done. Blocking
/// work (V4L2, FFmpeg, file I/O) runs on threads of its own, never on the actor or the cooperative pool.
///
/// This file holds the state and the shot's state machine; what callers see of it is in
/// `CameraManager+Status.swift`, the camera's presence and preview in `CameraManager+Preview.swift`,
/// the idle microphone's meter in `CameraManager+SoundMonitor.swift`.
package actor CameraManager {
    enum State {
        case idle
        case countdown(StopSignal, remaining: Int)
        case starting(StopSignal)
        case recording(StopSignal)
        case finishing
        case failed(RecorderError)
        case cameraMissing(RecorderError)
    }

    package nonisolated let workspace: ShotWorkspace
    /// The camera the kiosk uses: nil or "auto" for the first camera (else the test pattern).
    package nonisolated let device: String?
    /// Where the preview and the recording loop leave their latest picture.
    package nonisolated let preview: PreviewTap
    /// Every frame the camera delivered, the preview's and the shots' (the kiosk's heartbeat).
    package nonisolated let frames = FrameTally()
    var state: State = .idle
    /// State changes so far: statuses taken at different moments can arrive out of order (a slow
    /// poll after a newer event), and this says which is newer.
    var revision = 0
    var observer: (@Sendable (Event) -> Void)?
    var shotTask: Task<Void, Never>?
    var previewSession: PreviewSession?
    var lastPreviewRequest: ContinuousClock.Instant?
    var posting = false
    /// The shot being recorded, while `run` follows it: its latest progress is read from there.
    var currentRecording: Recording?
    var lastResult: ShotResult?
    /// Why the last shot was not kept, until the next one starts.
    var lastDiscarded: RecorderError?
    var cameraDescription: String
    /// The microphone while idle, for the page's meter; see `soundLevel`.
    var soundMonitor: SoundMonitor?
    var lastSoundRequest: ContinuousClock.Instant?
    /// When opening the idle microphone last failed: not tried again for a few seconds.
    var soundMonitorFailedAt: ContinuousClock.Instant?
    /// What the countdown and the idle preview and microphone are timed by (a test's clock moves
    /// only when the test moves it).
    let clock: any RecorderClock
    /// Wakes a countdown's wait for its next second when the shot is called off.
    private let countdownWake = ChangeSignal()
    /// How long the preview keeps the camera after the last request for a picture
    /// (`kiosk.preview_idle_seconds`).
    package let previewIdleSeconds: Double

    package init(workspace: ShotWorkspace, device: String? = nil, preview: PreviewTap = PreviewTap(), previewIdleSeconds: Double = 10,
                 clock: any RecorderClock = .system) {
        self.workspace = workspace
        self.clock = clock
        self.previewIdleSeconds = previewIdleSeconds
        self.device = device == "auto" ? nil : device
        self.preview = preview
        self.cameraDescription = device ?? "auto"
    }

    /// Sets the one observer of events (the kiosk's hub fans them out).
    package func observe(_ handler: @escaping @Sendable (Event) -> Void) {
        observer = handler
    }

    func setState(_ next: State) {
        state = next
        revision += 1
        observer?(.state(recordState))
    }

    // MARK: - Shooting

    /// Records one shot into the workspace and makes it current, waiting for it to end. Notes about
    /// the source arrive via `notice` before recording starts; progress after each frame.
    /// `stop` lets the caller stop the shot from the moment it asks for it (a Ctrl-C during
    /// start-up, before this actor has even seen the shot, is remembered).
    package func shoot(_ request: ShotRequest, stop: StopSignal = StopSignal(),
                      notice: @escaping @Sendable (ShotNote) -> Void = { _ in },
                      progress: @escaping @Sendable (ShotProgress) -> Void = { _ in }) async throws(RecorderError) -> ShotResult {
        switch state {
        case .idle, .failed, .cameraMissing: break
        case .countdown, .starting, .recording, .finishing: throw .shot(.alreadyRecording)
        }
        guard !posting else { throw .shot(.postingNow) }
        try request.validate()
        guard !stop.isSet else { throw .shot(.stoppedBeforeFirstFrame) }
        setState(.starting(stop))
        return try await record(request, stop: stop, notice: notice, progress: progress)
    }

    /// Starts a shot after a countdown and returns at once; the shot runs on its own and reports
    /// through the observer. Refused while another shot is under way, while posting, or when the
    /// configured camera is missing.
    package func begin(_ request: ShotRequest, countdown: Int) throws(RecorderError) {
        switch state {
        case .idle, .failed: break
        case .cameraMissing(let why):
            throw .shot(.cameraUnavailable(why))
        case .countdown, .starting, .recording, .finishing: throw .shot(.alreadyRecording)
        }
        guard !posting else { throw .shot(.postingNow) }
        try request.validate()
        guard (0...60).contains(countdown) else { throw .shot(.countdownOutOfRange(countdown)) }
        let stop = StopSignal()
        lastDiscarded = nil
        setState(countdown > 0 ? .countdown(stop, remaining: countdown) : .starting(stop))
        shotTask = Task { [weak self] in
            guard let self else { return }
            await self.runCountdownThenShot(request, stop: stop, countdown: countdown)
        }
    }

    private func runCountdownThenShot(_ request: ShotRequest, stop: StopSignal, countdown: Int) async {
        var remaining = countdown
        while remaining > 0 {
            // A second on the clock, or less when the shot is called off (`stop` wakes it).
            let deadline = clock.now + .seconds(1)
            while !stop.isSet, !Task.isCancelled, clock.now < deadline {
                let seen = countdownWake.generation
                if stop.isSet { break }
                await countdownWake.wait(after: seen, timeout: clock.now.duration(to: deadline), clock: clock)
            }
            guard case .countdown(let signal, _) = state, signal === stop, !stop.isSet else {
                // Stopped during the countdown: nothing was recorded, the previous shot stays.
                if case .countdown = state { setState(.idle) }
                return
            }
            remaining -= 1
            setState(remaining > 0 ? .countdown(stop, remaining: remaining) : .starting(stop))
        }
        do {
            _ = try await record(request, stop: stop, notice: { _ in }, progress: { _ in })
        } catch {
            // Reported through the observer by `record`.
        }
    }

    /// The shot itself, from `.starting`: preview closed, then open, record, finish and release on
    /// the shot's own thread.
    private func record(_ request: ShotRequest, stop: StopSignal,
                        notice: @escaping @Sendable (ShotNote) -> Void,
                        progress: @escaping @Sendable (ShotProgress) -> Void) async throws(RecorderError) -> ShotResult {
        await closePreview()
        // The shot opens the microphone itself: the idle meter lets go of it first.
        await closeSoundMonitor()
        // Copies for the preview only while somebody watches it (never for `recorder shoot`).
        let watched = lastPreviewRequest.map { clock.now - $0 < .seconds(previewIdleSeconds) } ?? false
        let outcome = await run(request, stop: stop, preview: watched ? preview : nil, notice: notice, progress: progress)
        switch outcome {
        case .success(let result):
            lastResult = result
            if let lost = result.cameraLost, device != nil {
                setState(.cameraMissing(lost))
            } else {
                setState(.idle)
            }
            observer?(.shotFinished(result))
            return result
        case .failure(let error):
            // Stopped before the first frame: nothing was recorded and nothing failed.
            if stop.isSet && error.kind == .interrupted {
                lastDiscarded = error
                setState(.idle)
                observer?(.shotDiscarded(error))
                throw error
            }
            // The cause says whether the camera went away; a capture failure that does not say
            // (a stall, a driver refusing) is settled by looking for the camera. A missing FFmpeg
            // or a full disk is never a missing camera.
            if device != nil, await cameraWentAway(error) {
                setState(.cameraMissing(error))
            } else {
                setState(.failed(error))
            }
            observer?(.shotFailed(error))
            throw error
        }
    }

    /// Runs the whole shot as a `Recording` (a thread that owns its source, encoder and writer
    /// from open to release); the actor only moves the state along as the recording's events come,
    /// and hears the outcome after everything was let go.
    private func run(_ request: ShotRequest, stop: StopSignal, preview: PreviewTap?,
                     notice: @escaping @Sendable (ShotNote) -> Void,
                     progress: @escaping @Sendable (ShotProgress) -> Void) async -> Result<ShotResult, RecorderError> {
        let recording = Recording(request, workspace: workspace, stop: stop, preview: preview, tally: frames)
        currentRecording = recording
        defer { currentRecording = nil }
        // Heard to the end in a task of its own: a stream ends early when its reader is cancelled,
        // but the thread finishes the shot regardless, and the state must follow it there.
        return await Task {
            var outcome: Result<ShotResult, RecorderError> = .failure(RecorderError(InternalFailure.noOutcome("the shot's thread")))
            for await event in recording.events {
                switch event {
                case .notice(let text):
                    notice(text)
                case .recording:
                    do throws(RecorderError) { try transition(to: .recording(stop)) } catch { recording.stop() }
                case .progress(let update):
                    progress(update)
                case .finishing:
                    do throws(RecorderError) { try transition(to: .finishing) } catch { recording.stop() }
                case .ended(let result):
                    outcome = result
                }
            }
            return outcome
        }.value
    }

    /// What a press of the booth's button did.
    package enum PressOutcome: Sendable, Equatable {
        case started, stopped, ignored
        /// A press that would have started a shot when none may start yet (`press(nil, ...)`: the
        /// kiosk waits for a guest's consent).
        case notStarted
    }

    /// The booth's button, one press: a shot (after the countdown) when none is under way; the
    /// end of one counting down or recording; nothing while a shot is being saved. Decided here on
    /// the actor, so a press never acts on a state that has just changed. With no `request` a
    /// press only ever stops.
    package func press(_ request: ShotRequest?, countdown: Int) throws(RecorderError) -> PressOutcome {
        switch state {
        case .countdown, .starting, .recording: return stop() ? .stopped : .ignored
        case .finishing: return .ignored
        case .idle, .failed, .cameraMissing:
            guard let request else { return .notStarted }
            try begin(request, countdown: countdown)
            return .started
        }
    }

    /// Asks the shot in progress to stop early; it is finished into a valid, shorter file. During a
    /// countdown the shot is called off. Returns false when nothing is under way.
    @discardableResult
    package func stop() -> Bool {
        switch state {
        case .countdown(let signal, _):
            signal.set()
            countdownWake.signal()
            setState(.idle)
            return true
        case .starting(let signal), .recording(let signal):
            signal.set()
            return true
        case .idle, .finishing, .failed, .cameraMissing:
            return false
        }
    }

    /// Waits for the shot under way, if any, to be finished (or called off).
    package func waitForShot() async {
        await shotTask?.value
    }

    private func transition(to next: State) throws(RecorderError) {
        switch (state, next) {
        case (.starting(let signal), .recording):
            // A stop during start-up still lets the (empty) recording finish cleanly.
            setState(.recording(signal))
        case (.recording, .finishing):
            setState(.finishing)
        default:
            throw RecorderError(InternalFailure.illegalStateChange("\(state) to \(next)"))
        }
    }

    private func cameraWentAway(_ error: RecorderError) async -> Bool {
        guard case .capture(let capture) = error.cause else { return false }
        switch capture.kind {
        case .noSuchDevice, .disconnected: return true
        case .stalled, .driverFailure:
            if case .missing = await probe() { return true }
            return false
        default: return false
        }
    }

    // MARK: - Holding the shot for a post

    /// Runs `body` (queueing the current shot as a post) while no shot may start: the next shot
    /// would replace the one being posted. Refused while a shot is under way, or while another
    /// `body` runs. The manager does not post; it only keeps the shot still.
    package func holdingCurrentShot<T: Sendable>(_ body: @Sendable () async throws(RecorderError) -> T) async throws(RecorderError) -> T {
        switch state {
        case .countdown, .starting, .recording, .finishing:
            throw .shot(.recordingNow)
        case .idle, .failed, .cameraMissing: break
        }
        guard !posting else { throw .shot(.postingNow) }
        posting = true
        defer { posting = false }
        return try await body()
    }

    // MARK: - Threads

    /// Short blocking calls (a device probe, waiting for the preview to close), off the actor.
    static func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await BlockingWork.run(body)
    }
}
