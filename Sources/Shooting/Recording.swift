import Synchronization
internal import SystemSupport
import VideoCapture
import Settings
import Failures
import ShotValues

/// One shot being recorded: a thread of its own owns its frame loop from open to release: the
/// source, the encoder and writer, the sound and the preview tap (STREAMOFF and munmap can block,
/// and a device belongs to one thread). The `CameraManager` actor sends it its one command
/// (`stop`) and reads what it reports from one stream of events, in order; nothing calls back up.
///
/// The latest progress is also written to `latest` after every frame, so a status read needs no
/// hop to follow the frames.
final class Recording: Sendable {
    /// What the recording reports, in order.
    enum Event: Sendable {
        /// Something to tell the user (a leftover removed, no sound, a silent take).
        case notice(ShotNote)
        /// The source is open and recording starts.
        case recording
        /// The latest progress, at most ten times a second (`latest` has every frame's).
        case progress(ShotProgress)
        case finishing
        /// Finished (or failed), and the camera, encoder and workspace lock let go. The last event.
        case ended(Result<ShotResult, RecorderError>)
    }

    /// The recording's events, ending with `.ended`.
    let events: AsyncStream<Event>
    /// The latest progress, written by the recording's thread.
    let latest: Mutex<ShotProgress?>
    private let stopSignal: StopSignal

    /// Starts the recording's thread (`recorder-shot`); `stop` ends the shot early when set.
    init(_ request: ShotRequest, workspace: ShotWorkspace, stop: StopSignal, preview: PreviewTap?, tally: FrameTally? = nil) {
        stopSignal = stop
        latest = Mutex(nil)
        let (events, report) = AsyncStream<Event>.makeStream()
        self.events = events
        WorkerThread.start(name: "recorder-shot", stackSize: 4 << 20) { [self] in
            // The job never leaves this thread.
            let job = ShotJob(request: request, workspace: workspace, stop: stop, preview: preview, tally: tally)
            let outcome: Result<ShotResult, RecorderError>
            do throws(RecorderError) {
                try job.open()
                // Said before the first frame, so a stop in answer to them (Ctrl-C) finds the
                // shot still starting.
                for path in job.cleaned { report.yield(.notice(.leftoversRemoved(path: path))) }
                for note in job.notes { report.yield(.notice(note)) }
                let said = job.notes.count
                report.yield(.recording)
                // Every frame's progress is in `latest`; the stream carries a tenth of a second's
                // worth, so the actor does not wake for each frame.
                var reported: Int64 = 0
                try job.record { update in
                    latest.withLock { $0 = update }
                    let now = MonotonicClock.nowMicroseconds()
                    if now - reported >= 100_000 {
                        reported = now
                        report.yield(.progress(update))
                    }
                }
                report.yield(.finishing)
                outcome = .success(try job.finish())
                // What the take itself showed (a silent take, the sound stopping early), said too.
                for note in job.notes.dropFirst(said) { report.yield(.notice(note)) }
            } catch {
                outcome = .failure(error)
            }
            job.release()
            report.yield(.ended(outcome))
            report.finish()
        }
    }

    /// Ends the shot early: the recording keeps what it has and finishes.
    func stop() { stopSignal.set() }
}
