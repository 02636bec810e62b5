import KioskService
import Library
import Publishing
import Settings
import Shooting
import SystemSupport
import KioskWords
import Failures
import MailValues

/// The command line's words for every failure: the operator's words (`OperatorWords`) where the
/// command line has nothing better to say, its own where it has a flag or a command to offer, and
/// the advice spelled as flags. The one place the CLI words a failure.
enum CLIWords {
    /// What happened, what to do, and the flags that would help.
    static func text(_ error: RecorderError) -> String {
        message(error) + SettingAdvice.sentence(error.advice, spelledBy: \.spelledAsFlag)
    }

    /// What happened and what to do, without the advice.
    static func message(_ error: RecorderError) -> String {
        if let failure = error.failure(as: CLIFailure.self) { return cli(failure) }
        if let failure = error.failure(as: CLIMailFailure.self) { return mail(failure) }
        if let words = commandLine(error) { return words }
        let words = OperatorWords.message(error)
        // (a device not found: the command line lists the machine's devices)
        return error.listingHelps ? words + " Run recorder devices to list this machine's cameras and microphones." : words
    }

    static func cli(_ failure: CLIFailure) -> String {
        switch failure {
        case .cachedVideoUnreadable(let path, let code):
            "cannot read the cached video \(path): \(errno(code))."
        case .standardOutputClosed(let code):
            "cannot write the video to standard output: \(errno(code))."
        case .leftOutOfReel(let skipped):
            "\(skipped.count) post(s) could not be read and are not in the reel: \(named(skipped))"
        case .leftOutOfExport(let skipped):
            "\(skipped.count) post(s) could not be read and are not in the export: \(named(skipped))"
        case .noMicrophone(let problem):
            "no microphone found\(problem.map { ": \($0)" } ?? ""). Plug one in (a USB camera's own counts) and run recorder devices to see it."
        case .noMicrophoneListened(let problems):
            "no microphone could be listened to (\(problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))). Close the program that has it (a running kiosk: stop it first), or check the permissions (the audio group)."
        case .stillQueued(let error, let count):
            "\(message(error)) \(count) post(s) still queued."
        case .purgeNeedsRetention:
            "--purge-expired needs retention.days (how many days a post lives in the store) or retention.local_days (how long this machine keeps its copies), e.g. --set retention.days=30, or retention.days = 30 in the configuration file."
        case .clockInDoubt(let doubt):
            "no expired post was deleted: \(OperatorWords.explanation(doubt))"
        case .purgeIncomplete(let count, let id, let why):
            "\(count) expired item(s) could not be deleted (\(id): \(message(why))). Run the purge again once that is fixed: what is deleted stays deleted."
        case .captionFileUnreadable(let path, let code):
            "cannot read the caption file \(path): \(errno(code)). Check the path."
        case .captionInputUnreadable(let code):
            "cannot read the caption from standard input: \(errno(code)). Pipe the caption in, or use --caption-file."
        case .captionTooLong(let source, let limit):
            "the caption in \(source) is longer than \(limit) characters. Shorten it."
        case .captionReadFailed(let source, let code):
            "cannot read the caption from \(source): \(errno(code))."
        case .postQueued(let error, let id, let directory, let mailWaits):
            "\(message(error)) Post \(id) is queued in \(directory).\(mailWaits ? " Its mail goes once it is sent." : "")"
        case .uploadStopped(let id):
            "the upload stopped before post \(id)."
        case .shotKept(let error):
            "the shot was kept, but \(message(error))"
        case .exporterCannotListen(let address, let reason, let inUse):
            "the fleet exporter cannot listen on \(address): \(reason).\(inUse ? " Another program has that port: stop it, or give --listen another port." : " Give --listen an address of this machine (127.0.0.1:9478, or 0.0.0.0:9478 for every network).")"
        }
    }

    /// Where the command line has a command or a flag to offer: the operator's words with it, else nil.
    static func commandLine(_ error: RecorderError) -> String? {
        let words = OperatorWords.message(error)
        if let failure = error.failure(as: PostFailure.self) {
            switch failure {
            case .noSuchShot: return words + " Leave out --shot to post the current shot."
            case .currentShotUnreadable: return words.dropLastPeriod + " (recorder shoot), or post a kept one with --shot."
            case .noFinishedShot, .videoMissing, .alreadyPosted: return words.dropLastPeriod + ": recorder shoot"
            case .postingElsewhere: return "another `recorder post` is posting this shot right now; wait for it."
            case .notQueued: return words + " `recorder outbox` lists them."
            case .notUploaded, .stillQueued: return words + " Run `recorder outbox flush` to keep trying."
            default: return nil
            }
        }
        if let failure = error.failure(as: FeedFailure.self) {
            switch failure {
            case .notAPostID: return words.dropLastPeriod + ", as `recorder feed` shows them)."
            case .notInStore: return words + " Check the id with `recorder feed`, and that the store settings are the ones it was posted to."
            default: return nil
            }
        }
        if let failure = error.failure(as: ShotFailure.self) {
            switch failure {
            case .cameraUnavailable(let why): return "the camera is not available: \(message(why))"
            // (`--overlay` given here: the flag, not the key)
            case .overlayMissing(let path, "--overlay"), .overlayIsDirectory(let path, "--overlay"), .overlayUnusable(let path, "--overlay", _):
                return words.replacing("shoot.overlay = \(path) (from --overlay)", with: "--overlay \(path)")
            default: return nil
            }
        }
        if let problem = error.failure(as: ConfigurationProblem.self) {
            switch problem.issue {
            case .fileMissing, .fileUnreadable, .fileIsDirectory, .fileTooLarge:
                return words.replacing("RECORDER_CONFIG", with: "--config / RECORDER_CONFIG")
            default: return nil
            }
        }
        return nil
    }

    /// "id: why; id: why", by id.
    static func named(_ failures: [String: RecorderError]) -> String {
        failures.sorted { $0.key < $1.key }.map { "\($0.key): \(message($0.value))" }.joined(separator: "; ")
    }

    static func errno(_ code: Int32) -> String { Descriptors.Errno(code).description }
}

extension String {
    /// Without its last character when that is a full stop (or a closing parenthesis and a full stop).
    fileprivate var dropLastPeriod: String {
        if hasSuffix(").") { return String(dropLast(2)) }
        return hasSuffix(".") ? String(dropLast()) : self
    }
}

extension RecorderError {
    /// The CLI's words (`CLIWords`), without the advice.
    var message: String { CLIWords.message(self) }
}

extension CLIWords {
    /// Guests' mail on the command line.
    static func mail(_ failure: CLIMailFailure) -> String {
        switch failure {
        case .settings(let problem, let origins):
            MailWording.settings(problem, origin: { origins[$0] ?? "the default" })
        case .noMailServer:
            "--email needs a mail server: set mail.smtp_url (smtps://HOST or smtp://HOST:587) and mail.from in the configuration (or --set mail.smtp_url=...)."
        case .noLinkToSend:
            "--email sends the post's share link, and this store gives none (a local store): set share.base_url to where the store's videos or the kiosk's share page can be opened, e.g. --set 'share.base_url=https://booth.example.com/s/{token}'."
        case .badAddress(let problem):
            "--email: " + MailWording.request(.address(problem))
        case .cannotQueue(let error):
            MailWording.request(.file(error))
        case .queueUnusable(let root, let error):
            "the mail queue in \(root) cannot be used: " + MailWording.file(error)
        case .cannotRetry(let id, let error):
            "mail \(id) cannot be changed: " + MailWording.file(error)
        case .noRefusedMail(let id, let queue, let refused):
            "no refused mail \(id) in \(queue) (\(refused.isEmpty ? "none is refused" : "refused: " + refused.joined(separator: ", ")))."
        case .mailsWaiting(let count):
            "\(count) mail(s) could not be sent now and stay queued (recorder outbox mail lists them, with why)."
        case .mailQueued(let post, let mail, let next, let why):
            "post \(post) was posted, and its mail \(mail) is still queued (tried again from \(next); `recorder outbox flush` or the kiosk sends it): \(MailWording.failure(why))"
        case .mailRefused(let post, let mail, let why):
            "post \(post) was posted, but its mail \(mail) was not sent: \(MailWording.failure(why))"
        }
    }
}
