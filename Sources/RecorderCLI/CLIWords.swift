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

    /// What happened and what to do, without the advice: the command line's own words where it
    /// has a flag or a command to offer, else the operator's. Each case is decided here (the
    /// compiler finds a new one).
    static func message(_ error: RecorderError) -> String {
        switch error {
        case .cli(let failure): cli(failure)
        case .cliMail(let failure): mail(failure)
        case .post(let failure): post(failure) ?? OperatorWords.message(error)
        case .feed(let failure): feed(failure) ?? OperatorWords.message(error)
        case .shot(let failure): shot(failure) ?? OperatorWords.message(error)
        case .configuration(let problem): configuration(problem) ?? OperatorWords.message(error)
        // (a device not found: the command line lists the machine's devices)
        case .capture, .audio:
            OperatorWords.message(error) + (error.listingHelps ? " Run recorder devices to list this machine's cameras and microphones." : "")
        case .media, .storage, .text, .internalFailure, .bookend, .cache, .export, .reel, .gallery, .serve, .kiosk:
            OperatorWords.message(error)
        }
    }

    static func cli(_ failure: CLIFailure) -> String {
        switch failure {
        case .noMicrophone(let problem):
            "no microphone found\(problem.map { ": \($0)" } ?? ""). Plug one in (a USB camera's own counts) and run recorder devices to see it."
        case .purgeNeedsRetention:
            "--purge-expired needs retention.days (how many days a post lives in the store) or retention.local_days (how long this machine keeps its copies), e.g. --set retention.days=30, or retention.days = 30 in the configuration file."
        case .captionInputUnreadable(let code):
            "cannot read the caption from standard input: \(errno(code)). Pipe the caption in, or use --caption-file."
        case .noPosts(let store):
            "no posts in \(store): the store holds none. If the booth's posts are elsewhere, `recorder config show` says which store the commands use (local.path, backend, s3.*), and --store-dir or --config name another."
        case .exporterCannotListen(let address, let reason, let inUse):
            "the fleet exporter cannot listen on \(address): \(reason).\(inUse ? " Another program has that port: stop it, or give --listen another port." : " Give --listen an address of this machine (127.0.0.1:9478, or 0.0.0.0:9478 for every network).")"
        case .cachedVideoUnreadable, .standardOutputClosed, .leftOutOfReel, .leftOutOfExport, .noMicrophoneListened, .stillQueued,
             .clockInDoubt, .purgeIncomplete, .captionFileUnreadable, .captionTooLong, .captionReadFailed, .postQueued, .uploadStopped,
             .shotKept:
            OperatorWords.commandLine(failure, nested: message)
        }
    }

    /// A post's failure where the command line has a command or a flag to offer; nil where the
    /// operator's words are the command line's too.
    static func post(_ failure: PostFailure) -> String? {
        let words = OperatorWords.message(.post(failure))
        switch failure {
        case .noSuchShot: return words + " Leave out --shot to post the current shot."
        case .currentShotUnreadable: return words.dropLastPeriod + " (recorder shoot), or post a kept one with --shot."
        case .noFinishedShot, .videoMissing, .alreadyPosted: return words.dropLastPeriod + ": recorder shoot"
        case .postingElsewhere: return "another `recorder post` is posting this shot right now; wait for it."
        case .notQueued: return words + " `recorder outbox` lists them."
        case .notUploaded, .stillQueued: return words + " Run `recorder outbox flush` to keep trying."
        case .shotUnreadable, .consentTextChanged, .storeMissing, .storeNotReady, .cannotCopyVideo, .cannotQueueConsentText,
             .queuedUnreadable, .outboxBusy, .metadataNotJSON:
            return nil
        }
    }

    static func feed(_ failure: FeedFailure) -> String? {
        let words = OperatorWords.message(.feed(failure))
        switch failure {
        case .notAPostID: return words.dropLastPeriod + ", as `recorder feed` shows them)."
        case .notInStore: return words + " Check the id with `recorder feed`, and that the store settings are the ones it was posted to."
        case .pageOutOfRange, .pageSizeOutOfRange, .cannotList, .cannotRead, .metadataDamaged, .cannotHide, .cannotShow, .cannotDelete,
             .nothingToDelete, .cannotStorePoster, .cannotReadPoster, .noTemporaryFile, .cannotDownloadVideo, .videoNotInStore,
             .videoMismatch, .noPicture, .unreadableEntry:
            return nil
        }
    }

    static func shot(_ failure: ShotFailure) -> String? {
        let words = OperatorWords.message(.shot(failure))
        switch failure {
        case .cameraUnavailable(let why): return "the camera is not available: \(message(why))"
        // (the take's length is --seconds here, when it is given with --effect boomerang)
        case .boomerangSecondsOutOfRange: return words.replacing("effect.boomerang_seconds", with: "--seconds (or effect.boomerang_seconds)")
        // (`--overlay` given here: the flag, not the key)
        case .overlayMissing(let path, "--overlay"), .overlayIsDirectory(let path, "--overlay"), .overlayUnusable(let path, "--overlay", _):
            return words.replacing("shoot.overlay = \(path) (from --overlay)", with: "--overlay \(path)")
        case .alreadyRecording, .postingNow, .recordingNow, .cameraMissing, .countdownOutOfRange, .workspaceBusy, .workspaceNotWritable,
             .secondsNotPositive, .secondsOverLimit, .sizeOutOfRange, .frameRateOutOfRange, .unknownPreset, .crfOutOfRange,
             .bitrateOutOfRange, .overlayMissing, .overlayIsDirectory, .overlayUnusable, .effectSoundMissing, .notEnoughSpace, .stoppedBeforeFirstFrame,
             .stoppedUnderMinimum, .inputEndedBeforeFirstFrame, .diskFullBeforeFirstSecond, .diskFullUnderMinimum, .diskFullKeptPart,
             .notCurrentShot, .cannotDeleteKept:
            return nil
        }
    }

    static func configuration(_ problem: ConfigurationProblem) -> String? {
        switch problem.issue {
        case .fileMissing, .fileUnreadable, .fileIsDirectory, .fileTooLarge:
            OperatorWords.message(.configuration(problem)).replacing("RECORDER_CONFIG", with: "--config / RECORDER_CONFIG")
        case .lineNotUTF8, .notKeyValue, .unclosedQuote, .textAfterQuote, .setTwice, .unknownKey, .badValue, .weakToken, .unknownBackend,
             .s3Needs, .badShareTemplate, .badKioskID, .store, .operatorSettingsUnreadable, .operatorSettingsDamaged, .notAnOperatorKey:
            nil
        }
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
    /// Guests' mail on the command line: its flags and commands, else the operator's words.
    static func mail(_ failure: CLIMailFailure) -> String {
        switch failure {
        case .noMailServer:
            "--email needs a mail server: set mail.smtp_url (smtps://HOST or smtp://HOST:587) and mail.from in the configuration (or --set mail.smtp_url=...)."
        case .noLinkToSend:
            "--email sends the post's share link, and this store gives none (a local store): set share.base_url to where the store's videos or the kiosk's share page can be opened, e.g. --set 'share.base_url=https://booth.example.com/s/{token}'."
        case .badAddress(let problem):
            "--email: " + MailWording.request(.address(problem))
        case .mailsWaiting(let count, let next):
            "\(count) mail(s) were not sent and stay queued\(next.map { ", tried again from \($0) (recorder outbox flush then, or the kiosk's next pass)" } ?? ""); recorder outbox mail lists them, with why."
        case .mailQueued(let post, let mail, let next, let why):
            "post \(post) was posted, and its mail \(mail) is still queued (tried again from \(next); `recorder outbox flush` or the kiosk sends it): \(MailWording.failure(why))"
        case .settings, .cannotQueue, .queueUnusable, .cannotRetry, .noRefusedMail, .mailRefused:
            OperatorWords.commandLineMail(failure)
        }
    }
}
