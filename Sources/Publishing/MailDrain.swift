import FoundationEssentials
import Synchronization
package import SystemSupport

/// Sends the guests' mail by itself, on a thread of its own: the kiosk's. It wakes when a mail is
/// queued or a post reaches the store (`wake()`), when the earliest backoff ends, and otherwise
/// every `idleRecheckSeconds` (a post another process sent, retention), by `clock`. Each pass
/// holds the mail queue's lock, so it never races `recorder outbox flush`.
package final class MailDrain: Sendable {
    package let delivery: MailDelivery
    private let idleRecheckSeconds: Double
    private let observer: @Sendable (MailDelivery.Event) -> Void
    private let passed: @Sendable (Result<MailDelivery.Pass, FileSystem.Failure>) -> Void
    /// The last pass's failure to use the queue (its files), if the last pass had one.
    private let failure = Mutex<FileSystem.Failure?>(nil)
    private let thread: DrainThread

    /// `observer` hears each mail's event as it happens; `passed` each pass's end (or the queue's
    /// failure). `clock` counts the waits (a `TestClock`'s moves are looked at at once).
    package init(delivery: MailDelivery, idleRecheckSeconds: Double = 60, clock: any RecorderClock = SystemClock(),
                 observer: @escaping @Sendable (MailDelivery.Event) -> Void = { _ in },
                 passed: @escaping @Sendable (Result<MailDelivery.Pass, FileSystem.Failure>) -> Void = { _ in }) {
        self.delivery = delivery
        self.idleRecheckSeconds = idleRecheckSeconds
        self.observer = observer
        self.passed = passed
        thread = DrainThread(name: "recorder-mail", clock: clock)
    }

    /// The last pass's failure to use the queue's files, if it had one.
    package var queueFailure: FileSystem.Failure? { failure.withLock { $0 } }

    /// Starts the thread; it makes a pass straight away.
    package func start() {
        thread.start { [self] in
            let wait = pass()
            return thread.clock.now + .milliseconds(Int64(wait * 1000))
        }
    }

    /// Returns once the thread waits between passes with no wake pending (true), or after
    /// `timeout` of the machine's time (false): a test moves its clock only then.
    @discardableResult
    package func waitUntilIdle(timeout: Duration = .seconds(60)) async -> Bool {
        await thread.waitUntilIdle(timeout: timeout)
    }

    /// A mail was queued, or a post reached the store: a pass now.
    package func wake() {
        thread.wake()
    }

    /// Stops the thread after the mail going out now (asked to stop within a second), waiting at
    /// most `timeout` seconds. What is not sent stays queued for the next start.
    package func stop(timeout: Double = 5) {
        thread.stop(timeout: timeout)
    }

    /// One pass; returns the seconds until the next (the earliest backoff's end, else the idle recheck).
    private func pass() -> Double {
        var wait = idleRecheckSeconds
        do throws(FileSystem.Failure) {
            let pass = try delivery.deliverDue(shouldStop: { [thread] in thread.isStopping }, observe: observer)
            failure.withLock { $0 = nil }
            passed(.success(pass))
            if let due = pass.nextDue { wait = min(wait, max(due.timeIntervalSince(delivery.now()), 0)) }
        } catch {
            failure.withLock { $0 = error }
            passed(.failure(error))
        }
        return wait
    }
}
