import FoundationEssentials
import Logging
import Synchronization
import MailValues
import Publishing
import Settings
import Failures
import SystemSupport
import KioskWords
package import KioskHTTP

extension EventSettings {
    /// `POST /api/admin/mail/test`'s answer: whether the server took the mail, and what it said.
    package struct TestMail: Encodable, Sendable {
        package struct Reply: Encodable, Sendable {
            package var code: Int
            package var text: String
            /// The step it answered (`SMTPStep`'s name: "the end of the message" for a mail taken).
            package var step: String
        }

        package var sent: Bool
        /// The server's reply: its 2xx to the message, or the refusal; nil when no reply came.
        package var reply: Reply?
        /// Why it was not sent, in the operator's words.
        package var error: String?
        package var to: String
    }

    /// Sends a test mail to `to` with the mail settings the page shows (the saved ones with
    /// `changes`, which are not saved), and answers what the server said. Its settings are judged
    /// as a save judges them first (422 with the findings). One at a time.
    package func sendTestMail(to: String, changes: [String: SettingChange]) async throws(Refusal) -> TestMail {
        let address: MailAddress
        do throws(MailAddress.Problem) { address = try MailAddress(to.trimmed()) } catch {
            throw .request(.badRequest("the test mail's address " + MailWording.address(error) + "."))
        }
        guard !mailing.exchange(true, ordering: .acquiring) else {
            throw .request(APIError(.recorder(.busy), "a test mail is being sent: wait for its answer."))
        }
        defer { mailing.store(false, ordering: .releasing) }
        let (mail, link) = try await BlockingWork.run { () throws(Refusal) -> (MailSettings, String) in
            try self.changing.withLock { _ throws(Refusal) -> (MailSettings, String) in
                let saved = self.running.readAgain()
                let draft = try self.draft(changes.filter { $0.key.hasPrefix("mail.") || $0.key == "event.name" }, saved: saved, allowNone: true)
                // (a login typed for the test stays only if it is saved)
                defer { self.removeUnused(draft.written, keeping: saved.layer) }
                let candidate = saved.reading(layer: draft.layer)
                let added = Self.added(by: candidate, to: saved).filter { $0.keys.contains { $0.hasPrefix("mail.") } }
                guard added.isEmpty else { throw .findings(added) }
                let mail: MailSettings?
                do throws(RecorderError) { mail = try ConfigurationCheck.mailSettings(candidate) } catch {
                    throw .findings([ConfigurationCheck.Finding(keys: ["mail.smtp_url"], error: error)])
                }
                guard let mail else {
                    throw .request(.badRequest("there is no mail server to test: set mail.smtp_url (and mail.from) first."))
                }
                return (mail, self.shareReach(candidate)?.example ?? self.settings.pageAddresses.first ?? "")
            }
        }
        let message = Self.testMessage(mail, to: address, link: link, date: clock.date)
        let outcome = await BlockingWork.run { () -> Result<SMTPReply, SMTPFailure> in
            do throws(SMTPFailure) { return .success(try mail.send(message)) } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let reply):
            logger.notice("operator page: test mail to \(address.masked) sent: \(reply)")
            return TestMail(sent: true, reply: .init(code: reply.code, text: reply.text, step: reply.step.name), to: address.masked)
        case .failure(let failure):
            let words = MailWording.failure(.smtp(failure))
            logger.warning("operator page: test mail to \(address.masked) not sent: \(words)")
            var reply: TestMail.Reply?
            if case .temporaryRefusal(let r) = failure { reply = .init(code: r.code, text: r.text, step: r.step.name) }
            if case .permanentRefusal(let r) = failure { reply = .init(code: r.code, text: r.text, step: r.step.name) }
            return TestMail(sent: false, reply: reply, error: words, to: address.masked)
        }
    }

    /// The test mail: what a guest's looks like (the same server, sender, event and a share link as
    /// the booth makes them), with words saying it is a test.
    static func testMessage(_ mail: MailSettings, to: MailAddress, link: String, date: Date) -> MailMessage {
        let subject = (try? MailTemplate(mail.event.isEmpty ? "Test mail from the booth" : "Test mail from the booth: {event}")) ?? .standardSubject
        let body = (try? MailTemplate("""
            This is a test mail from the booth's operator page ({event}).

            The guests' mails go through this server and come from this address, with the link to their video, as this one:
            {link}

            Nothing needs doing: it arrived, so the booth's mail works.
            """, requiring: [.link])) ?? .standardBody
        return MailMessage(from: mail.from, fromName: mail.fromName, to: to, postID: "test-\(Int(date.timeIntervalSince1970))",
                           subject: subject, body: body, values: [.link: link, .event: mail.event], poster: nil, date: date)
    }
}
