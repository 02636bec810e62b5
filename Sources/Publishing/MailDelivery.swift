package import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
package import StorageUpload
package import MailValues
package import SystemSupport
package import Settings

/// Sends the guests' mail that is due: one pass over the mail queue, blocking (the kiosk's
/// `MailDrain` runs it on its thread, `recorder post --email` and `recorder outbox flush` in
/// line). A mail goes once its post is in the store (the outbox's record of it), with the link that
/// record gives, so the link works wherever the guest opens it; a mail whose post is gone (deleted,
/// withdrawn from the queue, never queued) is forgotten, never sent. A failure that may pass waits
/// the retry policy's backoff (kept in the job, so across restarts too); one that cannot is kept
/// and shown, not retried.
package struct MailDelivery: Sendable {
    package let queue: MailQueue
    package let outbox: Outbox
    package let settings: MailSettings
    /// Where the posters are (`thumbs/<id>.jpg`); nil: mail goes without one.
    package let store: (any StorageBackend)?
    package let policy: RetryPolicy
    /// `retention.days`: jobs and kept addresses of expired posts go with them.
    package let retention: Retention?
    /// How the guest reads the link's end ({expires}), in the edge's words.
    package let expiresText: @Sendable (Date) -> String
    /// What the queue's times are measured by (a test hands in its own).
    package let now: @Sendable () -> Date

    package init(queue: MailQueue, outbox: Outbox, settings: MailSettings, store: (any StorageBackend)?, policy: RetryPolicy,
                 retention: Retention? = nil, expiresText: @escaping @Sendable (Date) -> String = { RFC3339.string($0) },
                 now: @escaping @Sendable () -> Date = { Date() }) {
        self.queue = queue
        self.outbox = outbox
        self.settings = settings
        self.store = store
        self.policy = policy
        self.retention = retention
        self.expiresText = expiresText
        self.now = now
    }

    /// What one mail's attempt came to, and what the pass found.
    package enum Event: Sendable, Equatable {
        /// The server took it (its 2xx).
        case sent(jobID: String, postID: String, reply: SMTPReply)
        /// Not now; tried again at `next` (RFC 3339).
        case willRetry(jobID: String, postID: String, failure: MailFailure, attempts: Int, next: String)
        /// Refused for good: kept and shown.
        case refused(jobID: String, postID: String, failure: MailFailure)
        /// Its post is gone: removed, never sent.
        case forgotten(jobID: String, postID: String)
    }

    /// What a pass did.
    package struct Pass: Sendable, Equatable {
        package var events: [Event] = []
        /// Jobs whose post is not in the store yet.
        package var waitingForPost = 0
        /// Jobs not tried in this pass: their last attempt's backoff is not over (`nextDue`).
        package var waitingForRetry = 0
        /// The earliest time a job waiting out its backoff is due, if any.
        package var nextDue: Date?
        package var sent: Int { events.count { if case .sent = $0 { true } else { false } } }
    }

    /// Where a job's post is.
    enum PostPlace {
        /// Being queued or queued: not in the store yet.
        case waiting
        case sent(PostReceipt)
        case gone
    }

    /// Sends every mail that is due, oldest first, until `shouldStop` says stop; `observe` hears
    /// each event as it happens. The queue's lock is held throughout (another sender waits).
    package func deliverDue(shouldStop: @escaping @Sendable () -> Bool = { false },
                            observe: (Event) -> Void = { _ in }) throws(FileSystem.Failure) -> Pass {
        let lock = try queue.lock()
        queue.finishInterrupted()
        var pass = Pass()
        func note(_ event: Event) {
            pass.events.append(event)
            observe(event)
        }
        if let retention {
            // Expired with their posts: the jobs, and the addresses records kept.
            let cutoff = retention.cutoff(at: now()), before = queue.jobs()
            let gone = Set(queue.forget(postsMadeBefore: cutoff).jobs)
            for job in before where gone.contains(job.id) { note(.forgotten(jobID: job.id, postID: job.postID)) }
        }
        for job in queue.jobs() where job.state == .queued {
            if shouldStop() { break }
            // (read again: a guest's delete may have taken it since the list was made)
            guard let job = queue.job(id: job.id) else { continue }
            switch place(of: job.postID, queuedBy: job.queuedByPID, queuedAt: job.queuedAt) {
            case .waiting:
                pass.waitingForPost += 1
            case .gone:
                for id in queue.forget(postID: job.postID).jobs { note(.forgotten(jobID: id, postID: job.postID)) }
            case .sent(let receipt):
                if let next = job.nextAttemptAt.flatMap(RFC3339.date), next > now() {
                    pass.nextDue = min(pass.nextDue ?? next, next)
                    pass.waitingForRetry += 1
                    continue
                }
                let event = attempt(job, receipt: receipt, shouldStop: shouldStop)
                note(event)
                if case .willRetry(_, _, _, _, let next) = event, let due = RFC3339.date(next) { pass.nextDue = min(pass.nextDue ?? due, due) }
            }
        }
        _ = consume lock
        return pass
    }

    /// Where post `id` is. Looked at in the order a post moves (being queued, queued, sent: each
    /// step is in place before the last is undone), so a post moving on meanwhile is never taken
    /// for gone.
    /// `queuedBy`: the process that queued the mail before its post, which may still be queueing it.
    func place(of id: String, queuedBy pid: Int32? = nil, queuedAt: String = "") -> PostPlace {
        // (this process queued its post already when it sends: `recorder post --email`)
        if let pid, pid != Posix.processID, Outbox.isRunning(pid, since: RFC3339.date(queuedAt)) { return .waiting }
        if outbox.isBeingQueued(id: id) || outbox.item(id: id) != nil { return .waiting }
        if let receipt = outbox.receipt(id: id) { return .sent(receipt) }
        return .gone
    }

    /// The mail job `job` makes, as it goes out on every attempt (the same bytes each time).
    package func message(_ job: MailJob, receipt: PostReceipt) throws(MailFailure) -> MailMessage {
        guard let link = receipt.shareURL else { throw .noLink }
        let address: MailAddress
        do throws(MailAddress.Problem) { address = try MailAddress(job.address) } catch {
            // (checked when it was queued; a job edited by hand is refused, not sent anywhere else)
            throw .smtp(.permanentRefusal(SMTPReply(code: 553, text: "the queued address is not one", step: .recipient)))
        }
        var values: [MailTemplate.Field: String] = [.link: link, .caption: job.caption, .event: settings.event]
        if let expires = receipt.shareExpiresAt.flatMap(RFC3339.date) { values[.expires] = expiresText(expires) }
        // The poster the store has beside the video; a mail goes without one rather than not at all.
        let poster = (try? store?.read(key: PostMetadata.thumbnailKey(id: job.postID), limit: 2 << 20)) ?? nil
        return MailMessage(from: settings.from, fromName: settings.fromName, to: address, postID: job.postID,
                           subject: settings.subject, body: settings.body, values: values, poster: poster,
                           date: RFC3339.date(job.queuedAt) ?? now())
    }

    /// One attempt at `job`. The attempt is counted (durably) before it starts; the record that
    /// it was sent is put in place the moment the server's 2xx is read (`MailQueue`).
    func attempt(_ original: MailJob, receipt: PostReceipt, shouldStop: @escaping @Sendable () -> Bool) -> Event {
        var job = original
        job.attempts += 1
        job.nextAttemptAt = nil
        let outcome: Result<SMTPReply, MailFailure>
        do throws(MailFailure) {
            let message = try message(job, receipt: receipt)
            do throws(FileSystem.Failure) {
                // (its post deleted since the list was read: the job went with it, and no mail goes)
                guard try queue.update(job) else { return .forgotten(jobID: job.id, postID: job.postID) }
                try queue.preparePending(job)
            } catch {
                throw .file(operation: error.operation, path: error.path, errno: error.errno.code)
            }
            let confirmation = Confirmation()
            do throws(SMTPFailure) {
                let reply = try settings.sender.send(.bytes(message.bytes()), from: settings.from, to: message.to, shouldStop: shouldStop,
                                                     onAccepted: { [queue, job] _ in confirmation.record { () throws(FileSystem.Failure) in try queue.confirm(job) } })
                outcome = .success(reply)
            } catch {
                throw .smtp(error)
            }
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let reply):
            do throws(FileSystem.Failure) {
                // (recorded already unless writing it failed then: once more now)
                if FileSystem.status(of: "\(queue.sentDirectory)/\(job.id).json") == nil { try queue.confirm(job) }
                try queue.completeSent(job, reply: reply, at: RFC3339.string(now()))
            } catch {
                // The server has it: the record says so or, failing that, the job is tried again
                // (same Message-ID) when the disk takes writes again.
                job.lastFailure = .file(operation: error.operation, path: error.path, errno: error.errno.code)
                // (the same disk: what can be kept is kept; a job deleted meanwhile stays gone)
                _ = try? queue.update(job)
            }
            return .sent(jobID: job.id, postID: job.postID, reply: reply)
        case .failure(let failure):
            queue.abandonPending(job)
            job.lastFailure = failure
            let event: Event
            if failure.mayRetry {
                let next = RFC3339.string(now().addingTimeInterval(policy.delay(afterFailures: job.attempts)))
                job.nextAttemptAt = next
                event = .willRetry(jobID: job.id, postID: job.postID, failure: failure, attempts: job.attempts, next: next)
            } else {
                job.refusedAt = RFC3339.string(now())
                event = .refused(jobID: job.id, postID: job.postID, failure: failure)
            }
            // The job stays either way; a state that cannot be written (a full disk) leaves the
            // last one, and its attempt is made again sooner.
            // (a job deleted meanwhile, its post with it, is not written back)
            _ = try? queue.update(job)
            return event
        }
    }
}

/// Where the record of a sent mail is made from the transport's callback, and whether it was.
// `@unchecked Sendable`: written once, on the sending thread (the callback runs inside `send`),
// and read there after `send` returns.
private final class Confirmation: @unchecked Sendable {
    private(set) var failure: FileSystem.Failure?

    func record(_ body: () throws(FileSystem.Failure) -> Void) {
        do { try body() } catch { failure = error }
    }
}
