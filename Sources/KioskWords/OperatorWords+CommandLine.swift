package import Failures
import MailValues

// The command line's own failures, as the operator would be told them: the CLI says these with
// its flags and commands where it has some (`CLIWords`), and these words otherwise.
extension OperatorWords {
    /// `nested`: how a failure inside is worded (the CLI's words inside the CLI's).
    package static func commandLine(_ failure: CLIFailure, nested: (RecorderError) -> String) -> String {
        func named(_ failures: [String: RecorderError]) -> String {
            failures.sorted { $0.key < $1.key }.map { "\($0.key): \(nested($0.value))" }.joined(separator: "; ")
        }
        return switch failure {
        case .cachedVideoUnreadable(let path, let code):
            "cannot read the cached video \(path): \(errno(code))."
        case .standardOutputClosed(let code):
            "cannot write the video to standard output: \(errno(code))."
        case .leftOutOfReel(let skipped):
            "\(skipped.count) post(s) could not be read and are not in the reel: \(named(skipped))"
        case .leftOutOfExport(let skipped):
            "\(skipped.count) post(s) could not be read and are not in the export: \(named(skipped))"
        case .noMicrophone(let problem):
            "no microphone found\(problem.map { ": \($0)" } ?? ""). Plug one in (a USB camera's own counts)."
        case .noMicrophoneListened(let problems):
            "no microphone could be listened to (\(problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))). Close the program that has it (a running kiosk: stop it first), or check the permissions (the audio group)."
        case .stillQueued(let error, let count):
            "\(nested(error)) \(count) post(s) still queued."
        case .purgeNeedsRetention:
            "deleting expired posts needs retention.days (how many days a post lives in the store) or retention.local_days (how long this machine keeps its copies), e.g. retention.days = 30 in the configuration file."
        case .clockInDoubt(let doubt):
            "no expired post was deleted: \(explanation(doubt))"
        case .purgeIncomplete(let count, let id, let why):
            "\(count) expired item(s) could not be deleted (\(id): \(nested(why))). Run the purge again once that is fixed: what is deleted stays deleted."
        case .captionFileUnreadable(let path, let code):
            "cannot read the caption file \(path): \(errno(code)). Check the path."
        case .captionInputUnreadable(let code):
            "cannot read the caption from standard input: \(errno(code)). Pipe the caption in."
        case .captionTooLong(let source, let limit):
            "the caption in \(source) is longer than \(limit) characters. Shorten it."
        case .captionReadFailed(let source, let code):
            "cannot read the caption from \(source): \(errno(code))."
        case .postQueued(let error, let id, let directory, let mailWaits):
            "\(nested(error)) Post \(id) is queued in \(directory).\(mailWaits ? " Its mail goes once it is sent." : "")"
        case .uploadStopped(let id):
            "the upload stopped before post \(id)."
        case .shotKept(let error):
            "the shot was kept, but \(nested(error))"
        case .noPosts(let store):
            "no posts in \(store): the store holds none. If the booth's posts are elsewhere, the configuration names another store (local.path, backend, s3.*)."
        case .exporterCannotListen(let address, let reason, let inUse):
            "the fleet exporter cannot listen on \(address): \(reason).\(inUse ? " Another program has that port: stop it, or give the exporter another port." : " Give it an address of this machine (127.0.0.1:9478, or 0.0.0.0:9478 for every network).")"
        }
    }

    /// Guests' mail as the command line sends it, in the operator's words.
    package static func commandLineMail(_ failure: CLIMailFailure) -> String {
        switch failure {
        case .settings(let problem, let origins):
            MailWording.settings(problem, origin: { origins[$0] ?? "the default" })
        case .noMailServer:
            "a guest's mail needs a mail server: set mail.smtp_url (smtps://HOST or smtp://HOST:587) and mail.from in the configuration."
        case .noLinkToSend:
            "a guest's mail sends the post's share link, and this store gives none (a local store): set share.base_url to where the store's videos or the kiosk's share page can be opened, e.g. share.base_url = https://booth.example.com/s/{token}."
        case .badAddress(let problem):
            MailWording.request(.address(problem))
        case .cannotQueue(let error):
            MailWording.request(.file(error))
        case .queueUnusable(let root, let error):
            "the mail queue in \(root) cannot be used: " + MailWording.file(error)
        case .cannotRetry(let id, let error):
            "mail \(id) cannot be changed: " + MailWording.file(error)
        case .noRefusedMail(let id, let queue, let refused):
            "no refused mail \(id) in \(queue) (\(refused.isEmpty ? "none is refused" : "refused: " + refused.joined(separator: ", ")))."
        case .mailsWaiting(let count, let next):
            "\(count) mail(s) could not be sent now and stay queued\(next.map { " (tried again from \($0))" } ?? ""); they are sent again by themselves."
        case .mailQueued(let post, let mail, let next, let why):
            "post \(post) was posted, and its mail \(mail) is still queued (tried again from \(next)): \(MailWording.failure(why))"
        case .mailRefused(let post, let mail, let why):
            "post \(post) was posted, but its mail \(mail) was not sent: \(MailWording.failure(why))"
        }
    }
}
