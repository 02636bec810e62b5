package import FoundationEssentials
import StorageUpload
package import MailValues
package import SystemSupport
import Settings
import ShotValues

extension MailQueue {
    /// Queues a mail of `post` to `address` (checked with `MailAddress`, exactly as given: an edge
    /// trims what a person typed first), durably. `consentText` is the text the post's guest agreed
    /// to, if any: when it asks to keep addresses (`MailConsent`), the sent record keeps this one.
    /// `queuedBy`: the process about to queue the post itself (the mail is queued first).
    package func request(_ address: String, for post: PostMetadata, consentText: String?, queuedBy pid: Int32? = nil,
                         at now: Date = Date()) throws(MailRequestProblem) -> MailJob {
        let checked: MailAddress
        do throws(MailAddress.Problem) { checked = try MailAddress(address) } catch { throw .address(error) }
        var job = MailJob(id: newID(), postID: post.id, address: checked, caption: post.caption, postCreatedAt: post.createdAt,
                          queuedAt: RFC3339.string(now), keepAddress: consentText.map(MailConsent.asksToKeep) ?? false,
                          consentSha256: post.consent?.textSha256)
        job.queuedByPID = pid
        do throws(FileSystem.Failure) { try add(job) } catch { throw .file(error) }
        return job
    }

    /// How many mails wait, were refused, were sent: what the operator page and metrics count.
    package struct Counts: Sendable, Equatable, Codable {
        package var queued = 0
        package var refused = 0
        package var sent = 0
    }

    package func counts() -> Counts {
        let jobs = jobs()
        return Counts(queued: jobs.count { $0.state == .queued }, refused: jobs.count { $0.state == .refused }, sent: sentCount)
    }

    /// Sends refused job `id` again (after its cause was fixed): false when there is no refused
    /// job by that id.
    package func retry(jobID id: String) throws(FileSystem.Failure) -> Bool {
        guard var job = job(id: id), job.state == .refused else { return false }
        job.refusedAt = nil
        job.nextAttemptAt = nil
        try save(job)
        return true
    }
}

extension MailQueue {
    /// What is wrong with `address` for a guest's mail, or nil when it is one (nothing is queued).
    package static func problem(with address: String) -> MailAddress.Problem? {
        do throws(MailAddress.Problem) {
            _ = try MailAddress(address)
            return nil
        } catch {
            return error
        }
    }
}
