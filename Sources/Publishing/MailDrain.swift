import Dispatch
package import FoundationEssentials
import Synchronization
package import SystemSupport

/// Sends the guests' mail by itself, on a thread of its own: the kiosk's. It wakes when a mail is
/// queued or a post reaches the store (`wake()`), when the earliest backoff ends, and otherwise
/// every `idleRecheckSeconds` (a post another process sent, retention). Each pass holds the mail
/// queue's lock, so it never races `recorder outbox flush`.
package final class MailDrain: Sendable {
    private struct Shared {
        var stopping = false
        var running = false
        /// The last pass's failure to use the queue (its files), if the last pass had one.
        var queueFailure: FileSystem.Failure?
    }

    package let delivery: MailDelivery
    private let idleRecheckSeconds: Double
    private let observer: @Sendable (MailDelivery.Event) -> Void
    private let passed: @Sendable (Result<MailDelivery.Pass, FileSystem.Failure>) -> Void
    private let shared = Mutex(Shared())
    private let signal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// `observer` hears each mail's event as it happens; `passed` each pass's end (or the queue's failure).
    package init(delivery: MailDelivery, idleRecheckSeconds: Double = 60,
                 observer: @escaping @Sendable (MailDelivery.Event) -> Void = { _ in },
                 passed: @escaping @Sendable (Result<MailDelivery.Pass, FileSystem.Failure>) -> Void = { _ in }) {
        self.delivery = delivery
        self.idleRecheckSeconds = idleRecheckSeconds
        self.observer = observer
        self.passed = passed
    }

    /// The last pass's failure to use the queue's files, if it had one.
    package var queueFailure: FileSystem.Failure? { shared.withLock { $0.queueFailure } }

    /// Starts the thread; it makes a pass straight away.
    package func start() {
        let alreadyRunning = shared.withLock { state in
            defer { state.running = true }
            return state.running
        }
        guard !alreadyRunning else { return }
        WorkerThread.start(name: "recorder-mail") { [self] in
            run()
            finished.signal()
        }
    }

    /// A mail was queued, or a post reached the store: a pass now.
    package func wake() {
        signal.signal()
    }

    /// Stops the thread after the mail going out now (asked to stop within a second), waiting at
    /// most `timeout` seconds. What is not sent stays queued for the next start.
    package func stop(timeout: Double = 5) {
        let wasRunning = shared.withLock { state in
            state.stopping = true
            return state.running
        }
        guard wasRunning else { return }
        signal.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }

    private var stopping: Bool { shared.withLock { $0.stopping } }

    private func run() {
        while !stopping {
            var wait = idleRecheckSeconds
            do throws(FileSystem.Failure) {
                let pass = try delivery.deliverDue(shouldStop: { [self] in stopping }, observe: observer)
                shared.withLock { $0.queueFailure = nil }
                passed(.success(pass))
                if let due = pass.nextDue { wait = min(wait, max(due.timeIntervalSince(delivery.now()), 0)) }
            } catch {
                shared.withLock { $0.queueFailure = error }
                passed(.failure(error))
            }
            _ = signal.wait(timeout: .now() + wait)
            // Several wakes in a row need one pass.
            while signal.wait(timeout: .now()) == .success {}
        }
    }
}
