import Foundation
import VideoCapture

/// Owns capture: one shot at a time, its stop signal, and the record state.
///
/// The state is a private enum that every method switches on, so an illegal transition (a second
/// shoot while one records, a stop with nothing recording) is answered, never half-done.
public actor CameraManager {
    /// The record state as callers see it.
    public enum RecordState: Sendable, Equatable {
        case idle
        case starting
        case recording
        case finishing
        case failed(String)
    }

    private enum State {
        case idle
        case starting(StopSignal)
        case recording(StopSignal)
        case finishing
        case failed(RecorderError)
    }

    public let workspace: ShotWorkspace
    private var state: State = .idle

    public init(workspace: ShotWorkspace) {
        self.workspace = workspace
    }

    public var recordState: RecordState {
        switch state {
        case .idle: .idle
        case .starting: .starting
        case .recording: .recording
        case .finishing: .finishing
        case .failed(let error): .failed(error.message)
        }
    }

    /// Records one shot into the workspace and makes it current. Notes about the source arrive via
    /// `notice` before recording starts; progress after each frame.
    public func shoot(_ request: ShotRequest,
                      notice: @escaping @Sendable (String) -> Void = { _ in },
                      progress: @escaping @Sendable (ShotProgress) -> Void = { _ in }) async throws(RecorderError) -> ShotResult {
        switch state {
        case .idle, .failed: break
        case .starting, .recording, .finishing: throw RecorderError.alreadyRecording()
        }
        try request.validate()
        let stop = StopSignal()
        state = .starting(stop)
        let job = ShotJob(request: request, workspace: workspace, stop: stop)
        defer { job.release() }
        do {
            try await Self.onThread { () throws(RecorderError) in try job.open() }
            for path in job.cleaned { notice("removed leftovers of an interrupted shot: \(path)") }
            for note in job.notes { notice(note) }
            try transition(to: .recording(stop))
            try await Self.onThread { () throws(RecorderError) in try job.record(progress: progress) }
            try transition(to: .finishing)
            let result = try await Self.onThread { () throws(RecorderError) in try job.finish() }
            state = .idle
            return result
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Asks the shot in progress to stop early; it is finished into a valid, shorter file.
    /// Returns false when nothing is recording.
    @discardableResult
    public func stop() -> Bool {
        switch state {
        case .starting(let signal), .recording(let signal):
            signal.set()
            return true
        case .idle, .finishing, .failed:
            return false
        }
    }

    private func transition(to next: State) throws(RecorderError) {
        switch (state, next) {
        case (.starting(let signal), .recording):
            // A stop during start-up still lets the (empty) recording finish cleanly.
            state = .recording(signal)
        case (.recording, .finishing):
            state = .finishing
        default:
            throw RecorderError("internal error: illegal record state change", exitStatus: .software)
        }
    }

    /// Runs blocking work (ioctl, poll, encoding) on its own thread, off the cooperative pool.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws(RecorderError) -> T) async throws(RecorderError) -> T {
        let result: Result<T, RecorderError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(RecorderError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        return try result.get()
    }
}
