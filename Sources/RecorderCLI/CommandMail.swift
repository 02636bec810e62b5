import FoundationEssentials
import KioskService
import Publishing
import Settings
import SystemSupport
import KioskWords
import Failures
import MailValues

/// Guests' mail as the commands use it: its settings, checked (a problem is exit 78 with the key
/// to change), and a delivery over the outbox. The words are the operator's (`MailWording`): mail
/// has no flags of its own but `--email`.
enum CommandMail {
    /// `mail.*`, or nil while `mail.smtp_url` is empty.
    static func settings(_ configuration: RecorderConfiguration) throws(RecorderError) -> MailSettings? {
        do throws(MailSettingsProblem) {
            return try MailSettings.configured(configuration)
        } catch {
            throw RecorderError(CLIMailFailure.settings(error, configuration))
        }
    }

    /// The delivery of the mail queued in `outbox`, with the configured retry policy and retention.
    static func delivery(_ configuration: RecorderConfiguration, outbox: Outbox, settings: MailSettings) throws(RecorderError) -> MailDelivery {
        let language = configuration.text("kiosk.language") ?? "en"
        return MailDelivery(queue: MailQueue(outboxRoot: outbox.root), outbox: outbox, settings: settings, store: try configuration.makeBackend(),
                            policy: try configuration.retryPolicy(maximumAttempts: nil), retention: try Retention(configuration),
                            expiresText: { MailWording.expires($0, language: language) })
    }

    /// One pass over the queue: what is due is sent. A queue that cannot be used is a failure (74).
    static func deliver(_ delivery: MailDelivery, note: (String) -> Void) throws(RecorderError) -> MailDelivery.Pass {
        do throws(FileSystem.Failure) {
            return try delivery.deliverDue(observe: { event in
                switch event {
                case .sent(let id, let post, let reply): note("mail \(id) (post \(post)) sent: \(reply)")
                case .willRetry(let id, let post, let failure, _, let next): note("mail \(id) (post \(post)) not sent, tried again from \(next): \(MailWording.failure(failure))")
                case .refused(let id, let post, let failure): note("mail \(id) (post \(post)) not sent: \(MailWording.failure(failure))")
                case .forgotten(let id, let post): note("mail \(id) forgotten: its post \(post) is gone")
                }
            })
        } catch {
            throw RecorderError(CLIMailFailure.queueUnusable(root: delivery.queue.root, error))
        }
    }
}
