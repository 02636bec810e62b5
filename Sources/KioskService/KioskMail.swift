import FoundationEssentials
import Logging
package import Publishing
import Settings
import SystemSupport
import KioskWords
import KioskState
import MailValues

/// The guests' mail at the kiosk (`mail.*` set): the outbox's mail queue, the thread that sends it
/// (`MailDrain`), and what the pages, the journal and the metrics are told. An address reaches the
/// queue and the mail server only: the journal names the mail and its post, the operator page a
/// masked address.
package final class KioskMail: Sendable {
    package let settings: MailSettings
    package let queue: MailQueue
    package let drain: MailDrain
    /// The kiosk's: what a queued mail's time is stamped with.
    private let clock: any RecorderClock
    /// At most this many mails of one post (queued and sent): a guest's friends, not a list.
    static let perPost = 10
    /// How many mails the kiosk queues a minute and an hour, whoever asks.
    let rate: MailRate
    private let logger: Logger

    init(settings: MailSettings, delivery: MailDelivery, rate: MailRate, metrics: KioskMetrics, logger: Logger, events: EventStream,
         clock: any RecorderClock) {
        self.settings = settings
        self.rate = rate
        self.logger = logger
        queue = delivery.queue
        self.clock = clock
        drain = MailDrain(delivery: delivery, clock: clock, observer: { event in
            metrics.record(event)
            switch event {
            case .sent(let id, let post, let reply): logger.notice("mail \(id) of post \(post) sent: \(reply)")
            case .willRetry(let id, let post, let failure, let attempts, let next):
                logger.warning("mail \(id) of post \(post) not sent (attempt \(attempts)), tried again from \(next): \(MailWording.failure(failure))")
            case .refused(let id, let post, let failure): logger.error("mail \(id) of post \(post) not sent, kept: \(MailWording.failure(failure))")
            case .forgotten(let id, let post): logger.notice("mail \(id) forgotten with its post \(post)")
            }
            events.announce("mail")
        }, passed: { outcome in
            if case .failure(let failure) = outcome { logger.error("the mail queue cannot be used: \(MailWording.file(failure))") }
        })
    }

    /// Why a mail was not queued, for the API (the guest's sentence by key, the operator's words).
    enum Refusal: Error, Equatable {
        case request(MailRequestProblem)
        case tooMany
        /// The kiosk's mails a minute or an hour (`MailRate`).
        case rateReached(MailRate.Reached)
    }

    /// Queues a guest's mail of `post` to `address` (as typed: trimmed here) and wakes the drain.
    /// The same address for the same post again is the mail already queued.
    func request(_ address: String, for post: PostMetadata, consentText: String?) throws(Refusal) -> MailJob {
        let address = address.trimmed()
        let mine = queue.jobs().filter { $0.postID == post.id }
        if let same = mine.first(where: { $0.address.lowercased() == address.lowercased() }) { return same }
        guard mine.count + queue.receipts().count(where: { $0.postID == post.id }) < Self.perPost else { throw .tooMany }
        if let reached = rate.take() {
            // The operator is told once (the journal and the operator page's problems), not per refusal.
            if reached.first {
                logger.warning("guests' mail: kiosk.mail_per_\(reached.window.rawValue) (\(reached.limit) a \(reached.window.rawValue)) was reached; more mails are refused until the \(reached.window.rawValue) has room again. Raise it if the event needs more.")
            }
            throw .rateReached(reached)
        }
        let job: MailJob
        do throws(MailRequestProblem) { job = try queue.request(address, for: post, consentText: consentText, at: clock.date) } catch { throw .request(error) }
        drain.wake()
        return job
    }
}
