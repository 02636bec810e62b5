import FoundationEssentials
package import StorageUpload
import Synchronization
package import SystemSupport
package import Settings
package import Failures

/// Sends queued posts up by itself, on a thread of its own: the kiosk's background `outbox flush`.
///
/// It wakes when a post is queued (`wake()`), and otherwise every `idleRecheckSeconds` in case
/// another process queued one. While the store is unreachable it backs off exponentially with full
/// jitter (the same `RetryPolicy` as `outbox flush`); any success resets the backoff. Every flush
/// takes the outbox lock, so it never races a `recorder outbox flush` run by hand.
package final class OutboxDrain: Sendable {
    /// What the kiosk's status shows about uploads.
    package struct Status: Sendable, Equatable {
        /// Posts waiting, oldest first.
        package var queued: [String] = []
        /// Posts queued for another store than this kiosk's: kept, never sent from here
        /// (`recorder outbox retarget` may point one at this store).
        package var elsewhere: [String] = []
        /// The post going up now, with the bytes sent so far (approximate: requests include metadata).
        package var uploading: String?
        package var uploadingBytes: Int64 = 0
        package var uploadingTotal: Int64 = 0
        /// Why the last flush failed, until one succeeds.
        package var lastFailure: RecorderError?
        package var lastUploaded: PostReceipt?
        /// Seconds until the next attempt while backing off.
        package var retryInSeconds: Double?
        package var uploadedCount = 0
        package var failedAttempts = 0
        package var retries = 0
    }

    /// What happened, for the kiosk's event stream and metrics.
    package enum Event: Sendable {
        case changed(Status)
        case uploaded(PostReceipt, bytes: Int64)
        case failed(RecorderError)
        /// A post that failed before is being sent again.
        case retrying(String)
    }

    private struct Shared {
        var status = Status()
        var consecutiveFailures = 0
        var nextAttempt: ContinuousClock.Instant?
        var meterAtStart: Int64 = 0
    }

    package let outbox: Outbox
    private let makeUploader: @Sendable (_ willSend: @escaping @Sendable (OutboxItem) -> Void) throws(RecorderError) -> OutboxUploader
    private let policy: RetryPolicy
    private let idleRecheckSeconds: Double
    /// What the backoff and the idle recheck count by (a `TestClock` in tests: the waiting thread
    /// looks at the time again whenever it is moved).
    private let clock: any RecorderClock
    private let observer: @Sendable (Event) -> Void
    private let shared = Mutex(Shared())
    private let thread: DrainThread

    /// `makeUploader` builds an uploader for one flush (the backend is made afresh, so a fixed
    /// configuration problem clears itself); its policy should allow one attempt per post.
    package init(outbox: Outbox, policy: RetryPolicy, idleRecheckSeconds: Double = 60, clock: any RecorderClock = SystemClock(),
                makeUploader: @escaping @Sendable (_ willSend: @escaping @Sendable (OutboxItem) -> Void) throws(RecorderError) -> OutboxUploader,
                observer: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.outbox = outbox
        self.policy = policy
        self.idleRecheckSeconds = idleRecheckSeconds
        self.clock = clock
        thread = DrainThread(name: "recorder-outbox", clock: clock)
        self.makeUploader = makeUploader
        self.observer = observer
        shared.withLock { $0.status.queued = outbox.items().map(\.metadata.id) }
    }

    package var status: Status {
        shared.withLock { state in
            var status = state.status
            if status.uploading != nil {
                status.uploadingBytes = min(max(UploadMeter.bytesSent - state.meterAtStart, 0), status.uploadingTotal)
            }
            if let next = state.nextAttempt {
                let left = clock.remaining(until: next)
                status.retryInSeconds = max(Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18, 0)
            }
            return status
        }
    }

    /// Starts the drain thread; it flushes once straight away, then at the next attempt the
    /// backoff allows, else after `idleRecheckSeconds` by the clock.
    package func start() {
        thread.start { [self] in
            flushOnce()
            return shared.withLock { $0.nextAttempt } ?? clock.now + .milliseconds(Int64(idleRecheckSeconds * 1000))
        }
    }

    /// A post was queued: try now, even while backing off (the store may be back).
    package func wake() {
        shared.withLock { $0.nextAttempt = nil }
        thread.wake()
    }

    /// Stops the thread after the transfer in progress, waiting at most `timeout` seconds for it.
    /// Whatever is not sent stays queued (and a multipart upload journaled) for the next start.
    package func stop(timeout: Double = 5) {
        thread.stop(timeout: timeout)
    }

    private func flushOnce() {
        let items = outbox.items()
        publish { $0.status.queued = items.map(\.metadata.id) }
        guard !items.isEmpty else { return }
        let report: OutboxUploader.Report
        do throws(RecorderError) {
            let uploader = try makeUploader { [self] item in
                if item.state.attempts > 1 { observer(.retrying(item.metadata.id)) }
                publish { state in
                    if item.state.attempts > 1 { state.status.retries += 1 }
                    state.status.uploading = item.metadata.id
                    state.status.uploadingTotal = item.metadata.byteSize
                    state.meterAtStart = UploadMeter.bytesSent
                }
            }
            report = try uploader.flush()
        } catch {
            fail(error)
            return
        }
        for receipt in report.uploaded {
            let bytes = items.first { $0.state.shotID == receipt.shotID }?.metadata.byteSize ?? 0
            observer(.uploaded(receipt, bytes: bytes))
        }
        publish { state in
            state.status.uploading = nil
            state.status.queued = report.remaining.map(\.metadata.id)
            state.status.elsewhere = report.elsewhere.map(\.metadata.id)
            state.status.uploadedCount += report.uploaded.count
            if let last = report.uploaded.last { state.status.lastUploaded = last }
        }
        if let failure = report.failure {
            fail(failure)
        } else {
            publish { state in
                state.consecutiveFailures = 0
                state.nextAttempt = nil
                state.status.lastFailure = nil
                state.status.retryInSeconds = nil
            }
        }
    }

    private func fail(_ error: RecorderError) {
        observer(.failed(error))
        publish { state in
            state.status.uploading = nil
            state.status.lastFailure = error
            state.status.failedAttempts += 1
            state.consecutiveFailures += 1
            let delay = policy.delay(afterFailures: state.consecutiveFailures)
            state.nextAttempt = clock.now + .milliseconds(Int64(delay * 1000))
            state.status.retryInSeconds = delay
        }
    }

    private func publish(_ change: (inout Shared) -> Void) {
        let status = shared.withLock { state -> Status in
            change(&state)
            return state.status
        }
        observer(.changed(status))
    }
}
