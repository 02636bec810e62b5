import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging
import Publishing
import Settings
import Shooting
import SystemSupport
import KioskWords
import KioskHTTP
import ShareServer
import KioskState
import Failures
import MailValues
import ShotValues

/// "Send it to my email", under `/api`: the guest's thank-you sends their post's link to the
/// address they typed on the booth's keyboard. The booth's token reaches only the post its guest
/// just made (the share window), the operator's any post. The address goes into the outbox's mail
/// queue and nowhere else: not into the journal, not into an answer (a masked one).
enum MailRoutes {
    struct MailFields: Decodable {
        /// The post, as the Post's answer named it.
        var id: String?
        var address: String?
    }

    struct Queued: Encodable {
        var mail: String
        var status: String
        /// The address masked (`g***@e***.com`).
        var to: String
    }

    /// The routes, given what they use: the mail (nil when `mail.*` is off), the guest's flow (the
    /// post's window on the booth's screen), where posts are, the consent text guests agree to, the
    /// journal, the metrics.
    static func collection(mail: KioskMail?, guests: GuestCoordinator, library: KioskLibrary, consent: ConsentText?,
                           logger: Logger, metrics: KioskMetrics) -> GuardedRoutes {
        let routes = GuardedRoutes()
        routes.post("mail", .booth, "queues the post's link for the guest's address: {\"id\": the post, \"address\"} (mail.* set)") { request, context in
            let body = try await JSONBody.read(request, allowed: ["id", "address"])
            let fields = try body.decode(MailFields.self)
            guard let mail else {
                throw APIError(.recorder(.notFound), "mail is off (mail.smtp_url is empty): the guest page does not offer it.", guestKey: .tryAgain)
            }
            guard let id = fields.id, PostID.isValid(id) else {
                throw APIError.badRequest("id is required: the post to send, as the Post's answer named it ({\"id\": \"...\", \"address\": \"...\"}).")
            }
            guard let address = fields.address else { throw APIError(.recorder(.invalidRequest), "address is required.", guestKey: .mailInvalid) }
            // The booth's screen sends only its current guest's post, while their thank-you is up.
            guard context.identity?.role == .operator || guests.sharesLink(of: id) else {
                throw APIError(.mail(post: id))
            }
            guard let post = await post(id, in: library) else {
                throw APIError(.recorder(.notFound), "post \(id) is neither queued here nor in the store (deleted?). Nothing was queued.", guestKey: .tryAgain)
            }
            // The text the guest agreed to, when it is the one this kiosk shows (it asks to keep
            // addresses, or not: `MailConsent`).
            let consentText = post.consent.flatMap { given in consent.flatMap { $0.sha256 == given.textSha256 ? $0.text : nil } }
            let job: MailJob
            do throws(KioskMail.Refusal) {
                job = try await BlockingWork.run { () throws(KioskMail.Refusal) -> MailJob in
                    try mail.request(address, for: post, consentText: consentText)
                }
            } catch {
                switch error {
                case .request(.address(let problem)):
                    throw APIError(.recorder(.badData), "the address " + MailWording.address(problem) + ". Nothing was queued.", guestKey: .mailInvalid)
                case .request(.file(let failure)):
                    throw APIError(.recorder(.ioFailure), "the mail could not be queued: " + MailWording.file(failure), guestKey: .tryAgain)
                case .tooMany:
                    throw APIError(.tooMany, "post \(id) has \(KioskMail.perPost) mails already: no more are sent of one post.", guestKey: .mailTooMany)
                case .rateReached(let reached):
                    throw APIError(.tooMany, "the kiosk has queued \(reached.limit) mails in the last \(reached.window.rawValue) (kiosk.mail_per_\(reached.window.rawValue)): try again later. Nothing was queued.",
                                   guestKey: .busy)
                }
            }
            metrics.mailQueued()
            logger.notice("mail \(job.id) of post \(id) queued")
            return HTTPAnswer.encoded(Queued(mail: job.id, status: "queued", to: job.maskedAddress), status: .accepted)
        }
        return routes
    }

    /// Post `id`'s metadata: queued here, else from the store.
    static func post(_ id: String, in library: KioskLibrary) async -> PostMetadata? {
        await BlockingWork.run { library.outbox?.item(id: id)?.metadata ?? (try? library.feed.metadata(id: id)) }
    }
}
