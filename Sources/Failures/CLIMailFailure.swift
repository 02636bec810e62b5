package import MailValues
package import SystemSupport

/// Guests' mail on the command line (`post --email`, `outbox flush`, `outbox mail --retry`): what
/// stopped the command, with its data. `CLIWords` words it; `--json` gives its kind, case and data.
package enum CLIMailFailure: RecorderFailure {
    /// A `mail.*` setting cannot work; `origins`: where each `mail.*` value came from (the words
    /// name it).
    case settings(MailSettingsProblem, origins: [String: String])
    /// `--email` and no `mail.smtp_url`.
    case noMailServer
    /// `--email` and a store that gives no link to send (a local store, no `share.base_url`).
    case noLinkToSend
    /// `--email`'s address is not one mail is sent to.
    case badAddress(MailAddress.Problem)
    /// The mail could not be queued (its file, on the outbox's disk).
    case cannotQueue(FileSystem.Failure)
    /// The mail queue in `root` cannot be read or written.
    case queueUnusable(root: String, FileSystem.Failure)
    /// `outbox mail --retry ID`: the mail's file cannot be changed.
    case cannotRetry(id: String, FileSystem.Failure)
    /// `outbox mail --retry ID`: no refused mail `id` in `queue` (`refused`: the ones that are).
    case noRefusedMail(id: String, queue: String, refused: [String])
    /// `outbox flush`: `count` mails were not sent (tried and not taken, or their last try's wait
    /// not over) and stay queued, the first tried again from `next` (RFC 3339; nil: not known).
    case mailsWaiting(count: Int, next: String?)
    /// `post --email`: the post went; its mail `mail` stays queued, tried again from `next`.
    case mailQueued(post: String, mail: String, next: String, MailFailure)
    /// `post --email`: the post went; the server refused its mail `mail` (kept: `outbox mail`).
    case mailRefused(post: String, mail: String, MailFailure)

    package var kind: RecorderError.Kind {
        switch self {
        case .settings, .noMailServer, .noLinkToSend: .misconfigured
        case .badAddress: .invalidRequest
        case .cannotQueue, .queueUnusable, .cannotRetry: .ioFailure
        case .noRefusedMail: .notFound
        case .mailsWaiting, .mailQueued: .busy
        case .mailRefused: .unavailable
        }
    }

}

extension CLIMailFailure {
    package var wrapped: RecorderError { .cliMail(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .cliMail(let failure) = error else { return nil }
        self = failure
    }
}
