import Publishing
import MailValues
import KioskWords

extension AdminOverview {
    /// Guests' mail as the operator page shows it: never an address, only a masked one.
    package struct Mail: Encodable, Sendable {
        /// One mail waiting or refused.
        package struct Job: Encodable, Sendable {
            package var id: String
            package var post: String
            /// The address masked (`g***@e***.com`).
            package var to: String
            /// queued or refused.
            package var state: String
            package var queuedAt: String
            package var attempts: Int
            package var nextAttemptAt: String?
            /// Why the last attempt failed, in the operator's words.
            package var lastError: String?
            /// The server's reply to it, when there was one: its code, and the step it answered.
            package var replyCode: Int?
            package var replyStep: String?
        }

        package var jobs: [Job]
        package var sent: Int
        package var refused: Int
        package var waiting: Int
        /// Job files that cannot be read: kept, never sent.
        package var unreadable: [String]
        /// The queue's files cannot be used now (the outbox's disk), in the operator's words.
        package var queueProblem: String?

        /// What `mail` has now (reads the queue's files: call it off the cooperative pool).
        init(_ mail: KioskMail) {
            let jobs = mail.queue.jobs()
            self.jobs = jobs.map { job in
                var reply: SMTPReply?
                if case .smtp(let failure)? = job.lastFailure {
                    switch failure {
                    case .temporaryRefusal(let r), .permanentRefusal(let r): reply = r
                    default: break
                    }
                }
                return Job(id: job.id, post: job.postID, to: job.maskedAddress, state: job.state.rawValue, queuedAt: job.queuedAt,
                           attempts: job.attempts, nextAttemptAt: job.nextAttemptAt, lastError: job.lastFailure.map(MailWording.failure),
                           replyCode: reply?.code, replyStep: reply?.step.name)
            }
            sent = mail.queue.sentCount
            refused = jobs.count { $0.state == .refused }
            waiting = jobs.count - refused
            unreadable = mail.queue.unreadableJobs()
            queueProblem = mail.drain.queueFailure.map(MailWording.file)
        }
    }
}
