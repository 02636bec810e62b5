import Dispatch
import Synchronization
internal import SystemSupport
import VideoCapture
import MediaValues

/// Streams the kiosk's camera into a `PreviewTap` while no shot is recording, on its own thread.
///
/// It runs only while somebody looks (the kiosk starts it on a preview request and stops it after
/// a quiet spell), so an idle kiosk with no viewer leaves the camera closed and the CPU alone.
final class PreviewSession: Sendable {
    private let stopSignal = StopSignal()
    private let finished = Mutex<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// Why the session ended early, if it did.
    private let failure = Mutex<CaptureError?>(nil)

    /// Opens the source on a new thread and streams until `stop()`, the end of the source or an error.
    init(request: ShotRequest, tap: PreviewTap, tally: FrameTally) {
        let stop = stopSignal
        WorkerThread.start(name: "recorder-preview") { [self] in
            defer {
                self.finished.withLock { $0 = true }
                self.done.signal()
            }
            do throws(CaptureError) {
                let (source, _) = try SourceSelector.open(request)
                defer { source.close() }
                while !stop.isSet {
                    guard try source.nextFrame(stop: stop, { frame in
                        tally.count(frame.stamp, nominalFPS: frame.format.frameRate.value)
                        tap.offer(frame)
                    }) else { break }
                }
            } catch {
                self.failure.withLock { $0 = error }
            }
        }
    }

    var isFinished: Bool { finished.withLock { $0 } }
    var error: CaptureError? { failure.withLock { $0 } }

    /// Asks the thread to stop and waits until the camera is closed. Blocks: call off the actor.
    func stopAndWait() {
        stopSignal.set()
        done.wait()
        done.signal()
    }
}
