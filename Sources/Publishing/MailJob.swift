import StorageUpload
package import MailValues

/// One guest's mail, waiting in the outbox (`mail/queue/<id>.json`) until it is sent: the address
/// lives here and nowhere else, and goes when the mail has gone (or its post did). Sent once its
/// post is in the store, so the link it carries works; retried with backoff across restarts, the
/// next attempt's time kept here; a refusal that trying again cannot mend (5xx, TLS, the
/// settings) is kept, not retried, until somebody sends it again (`recorder outbox mail --retry`).
package struct MailJob: Sendable, Codable, Equatable {
    /// Random, the job's file name (never made from the address).
    package var id: String
    package var postID: String
    /// The guest's address, as `MailAddress` checked it.
    package var address: String
    /// The post's caption, for {caption}.
    package var caption: String
    /// When the post was made (RFC 3339): retention.days removes the job with its post.
    package var postCreatedAt: String
    /// When the guest asked (RFC 3339); also the mail's Date, so every attempt sends the same bytes.
    package var queuedAt: String
    package var attempts = 0
    /// Not before this (RFC 3339) after a failure; nil: as soon as its post is in the store.
    package var nextAttemptAt: String?
    package var lastFailure: MailFailure?
    /// Set when a refusal stopped the retries (RFC 3339): the job is kept and shown, not sent.
    package var refusedAt: String?
    /// The post's consent text asked to keep the address (`MailConsent`): it stays in the sent record.
    package var keepAddress = false
    /// The SHA-256 of the consent text the guest agreed to, when there was one.
    package var consentSha256: String?
    /// The process queueing the job's post with it (`recorder post --email` queues the mail
    /// first): while it runs, a post not queued yet is on its way, not gone.
    package var queuedByPID: Int32?

    package init(id: String, postID: String, address: MailAddress, caption: String, postCreatedAt: String, queuedAt: String,
                 keepAddress: Bool = false, consentSha256: String? = nil) {
        self.id = id
        self.postID = postID
        self.address = address.text
        self.caption = caption
        self.postCreatedAt = postCreatedAt
        self.queuedAt = queuedAt
        self.keepAddress = keepAddress
        self.consentSha256 = consentSha256
    }

    package enum State: String, Sendable, Codable {
        /// Waiting for its post's upload, its next attempt, or sending now.
        case queued
        /// Refused for good; kept and shown.
        case refused
    }

    package var state: State { refusedAt == nil ? .queued : .refused }

    /// The address as an operator is shown it (`g***@e***.com`).
    package var maskedAddress: String { (try? MailAddress(address))?.masked ?? "***" }

    /// The job with the server's words in its last failure masked for its own address: what every
    /// reader of the queue gets (`MailQueue`), so a job written before a spelling was masked shows
    /// it to nobody either.
    package var maskingReplies: MailJob {
        guard case .smtp(let failure)? = lastFailure, let address = try? MailAddress(address) else { return self }
        var job = self
        job.lastFailure = .smtp(failure.masking([address]))
        return job
    }
}

/// A sent mail's record (`mail/sent/<id>.json`): that it went and when, and what the server said.
/// No address, unless the guest's consent text asked to keep it (`MailConsent`): then it is kept
/// here for `recorder export --with-contacts`, and removed with the post.
package struct MailReceipt: Sendable, Codable, Equatable {
    package var id: String
    package var postID: String
    package var postCreatedAt: String
    /// RFC 3339; nil in a record the sender had no time to complete (the server had the mail).
    package var sentAt: String?
    /// The server's 2xx to the message (its text is the server's: a queue id, no address).
    package var reply: SMTPReply?
    package var address: String?
    package var consentSha256: String?

    package init(id: String, postID: String, postCreatedAt: String, sentAt: String? = nil, reply: SMTPReply? = nil,
                 address: String? = nil, consentSha256: String? = nil) {
        self.id = id
        self.postID = postID
        self.postCreatedAt = postCreatedAt
        self.sentAt = sentAt
        self.reply = reply
        self.address = address
        self.consentSha256 = consentSha256
    }
}
