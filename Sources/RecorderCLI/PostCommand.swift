import ShotValues
import ArgumentParser
import FoundationEssentials
import Glibc
import KioskService
import Settings
import Publishing
import SystemSupport
import Shooting
import KioskWords
import Failures
import MailValues
import Posting

/// `recorder post`: publish the current shot.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Publish the current shot: queue it durably in the outbox, then upload it.",
        discussion: """
        The shot gets a random 10-character name and a metadata document; both go to the store as \
        videos/<id>.mp4 and posts/<id>.json. If the upload fails the post stays queued (exit 75) and \
        `recorder outbox flush` sends it later. Captions: UTF-8, line breaks allowed, at most \(Caption.maximumLength) \
        characters, no control characters.
        """)

    @Option(name: .long, help: ArgumentHelp("The caption (required unless --caption-file; may be empty: --caption \"\"; - reads it from standard input).", valueName: "text"))
    var caption: String?

    @Option(name: .customLong("caption-file"), help: ArgumentHelp("Read the caption from this UTF-8 file (trailing line breaks dropped).", valueName: "file"))
    var captionFile: String?

    @Option(name: .long, help: ArgumentHelp("Post this shot instead of the current one: a recovered recording kept beside it.", valueName: "id"))
    var shot: String?

    @Option(name: .long, help: ArgumentHelp("A clip joined before the shot (post.intro): a PNG or JPEG (shown post.still_seconds, default 3) or an MP4 of at most 60 s; \"\" for none.", valueName: "file"))
    var intro: String?

    @Option(name: .long, help: ArgumentHelp("A clip joined after the shot (post.outro), as --intro.", valueName: "file"))
    var outro: String?

    @Option(name: .long, help: ArgumentHelp("Also mail the post's link to this address once it is in the store (mail.smtp_url and mail.from must be set); queued with the post, sent again until the server takes it.", valueName: "address"))
    var email: String?

    @Flag(name: .long, help: "Show what would be uploaded where, and change nothing.")
    var dryRun = false

    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("Upload attempts before leaving the post queued (retryable failures only), 1-1000 (default 3).", valueName: "count"),
            transform: { text in try WholeNumber.parse(text, 1...1000, "the number of attempts") })
    var attempts: Int = 3

    @Flag(name: .shortAndLong, help: "No notes: only the result (and errors).")
    var quiet = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var workspaceOptions: WorkspaceOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        try checkArgumentsAreUTF8()
        guard (caption == nil) != (captionFile == nil) else {
            throw ValidationError(caption == nil ? "a caption is required: --caption TEXT (may be empty), --caption - (standard input) or --caption-file FILE."
                                                 : "give either --caption or --caption-file, not both.")
        }
    }

    /// The caption from the option, standard input (`--caption -`) or a file; a file's or a pipe's
    /// trailing line breaks are not part of it.
    func captionText() throws(RecorderError) -> String {
        let source: String
        let fd: Int32
        if let captionFile {
            source = captionFile
            do throws(Descriptors.Errno) { fd = try Posix.open(captionFile, O_RDONLY | O_CLOEXEC) } catch {
                throw RecorderError(CLIFailure.captionFileUnreadable(path: captionFile, errno: error.code))
            }
        } else if caption == "-" {
            source = "standard input"
            do throws(Descriptors.Errno) { fd = try Posix.duplicate(STDIN_FILENO) } catch {
                throw RecorderError(CLIFailure.captionInputUnreadable(errno: error.code))
            }
        } else {
            return caption ?? ""
        }
        defer { Posix.closeAfterUse(fd) }
        // Four bytes a character is the most a caption of the maximum length can take, and more.
        var bytes: [UInt8]
        do throws(Descriptors.Errno) { bytes = try Posix.readAll(fd, limit: Caption.maximumLength * 4 + 16) } catch {
            if error.code == EFBIG {
                throw RecorderError(CLIFailure.captionTooLong(source: source, limit: Caption.maximumLength))
            }
            throw RecorderError(CLIFailure.captionReadFailed(source: source, errno: error.code))
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecorderError(TextProblem(.caption(source: source), .notUTF8))
        }
        return text
    }

    func run() throws {
        let configuration = try store.configuration()
        let outbox = Outbox(root: configuration.outboxDirectory)
        // The configured workspace too, so the CLI posts the kiosk's shot.
        let workspace = workspaceOptions.shotWorkspace(configuration)
        let note: @Sendable (String) -> Void = { [quiet] note in if !quiet { printError("recorder: note: \(note)") } }
        // After a power cut, the interrupted clip is the one to post.
        let recovery = workspace.recoverInterrupted()
        for line in recovery.notes { note(CLIWords.note(line)) }
        if !quiet, !recovery.kept.isEmpty { remindOfKeptShots(in: workspace, only: recovery.kept) }
        let enqueuer = PostEnqueuer(workspace: workspace, outbox: outbox, configuration: configuration)
        var plan = try enqueuer.plan(caption: try captionText(), shotID: shot)
        // Settings the upload needs are checked before anything is queued.
        let share = try ShareLinks(configuration)
        var bookends = try PostBookends.configured(configuration)
        if let intro { bookends.intro = intro.isEmpty ? nil : intro }
        if let outro { bookends.outro = outro.isEmpty ? nil : outro }
        // --email: the settings, a link to send and the address, all checked before anything is queued.
        let mail = try email.map { address throws(RecorderError) in (address, try mailSettings(configuration, share: share)) }
        if let address = mail?.0, let problem = MailQueue.problem(with: address) {
            throw RecorderError(CLIMailFailure.badAddress(problem))
        }
        if dryRun {
            try bookends.check()
            return printPlan(plan, bookends: bookends)
        }
        if !bookends.isEmpty {
            plan = try enqueuer.joining(bookends, to: plan)
            if let join = plan.join {
                let parts = [join.intro.map { "intro \($0)" }, join.outro.map { "outro \($0)" }].compactMap { $0 }.joined(separator: " and ")
                note("joined \(parts) to shot \(plan.shot.id): " + (join.reencodedBecause.map { "encoded again, as \(Self.words($0))" } ?? "the take copied as recorded"))
            }
        }
        // The mail first, then the post: a crash between them leaves a mail whose post never came,
        // which is forgotten; never a post whose guest's mail was lost.
        let queue = MailQueue(outboxRoot: outbox.root)
        var job: MailJob?
        if let mail {
            do throws(MailRequestProblem) {
                job = try queue.request(mail.0, for: plan.metadata, consentText: plan.consentText, queuedBy: Posix.processID)
            } catch {
                switch error {
                case .address(let problem): throw RecorderError(CLIMailFailure.badAddress(problem))
                case .file(let failure): throw RecorderError(CLIMailFailure.cannotQueue(failure))
                }
            }
        }
        let item: OutboxItem
        do { item = try enqueuer.enqueue(plan) } catch {
            // (the post was not queued: its mail goes too; one left here is forgotten by the next pass)
            if let job { _ = try? queue.remove(jobID: job.id) }
            throw error
        }
        if !quiet { printError("recorder: queued post \(item.metadata.id) in \(item.directory)") }
        if let job, !quiet { printError("recorder: queued mail \(job.id) of post \(item.metadata.id) to \(job.maskedAddress)") }
        let uploader = OutboxUploader(outbox: outbox, backend: try configuration.makeBackend(),
                                      policy: try configuration.retryPolicy(maximumAttempts: attempts),
                                      share: share, poster: Posters.jpeg, log: { note($0.words) })
        let report: OutboxUploader.Report
        do { report = try uploader.flush() } catch {
            printResult(status: "queued", id: item.metadata.id, item: item.directory, receipt: nil, error: error,
                        mail: job.map { MailResult(id: $0.id, status: "queued", to: $0.maskedAddress, error: nil) },
                        joined: plan.join, kept: workspace)
            throw RecorderError(CLIFailure.postQueued(error, id: item.metadata.id, directory: item.directory, mailWaits: job != nil))
        }
        for receipt in report.uploaded where receipt.shotID != plan.shot.id {
            note("also uploaded earlier post \(receipt.id)")
        }
        // The shot posted now is marked posted, so only the others are named.
        if !quiet { remindOfKeptShots(in: workspace, except: recovery.kept) }
        if let mine = report.uploaded.first(where: { $0.shotID == plan.shot.id }) {
            let sent = try job.map { job throws(RecorderError) in try sendMail(job, settings: mail!.1, configuration: configuration, outbox: outbox, note: note) }
            printResult(status: "uploaded", id: mine.id, item: nil, receipt: mine, error: nil, mail: sent?.result, joined: plan.join, kept: workspace)
            if let failure = sent?.failure { throw failure }
            return
        }
        let failure = report.failure ?? RecorderError(CLIFailure.uploadStopped(id: item.metadata.id))
        let queued = report.remaining.first { $0.state.shotID == plan.shot.id }
        printResult(status: "queued", id: queued?.metadata.id ?? item.metadata.id, item: queued?.directory ?? item.directory,
                    receipt: nil, error: failure, mail: job.map { MailResult(id: $0.id, status: "queued", to: $0.maskedAddress, error: nil) },
                    joined: plan.join, kept: workspace)
        throw failure
    }

    private func printPlan(_ plan: PostEnqueuer.Plan, bookends: PostBookends) {
        if output.json {
            printJSON(plan.metadata)
            return
        }
        print("dry run: nothing was queued or uploaded")
        print("  shot      \(plan.shot.videoPath)")
        print("  store     \(plan.store)")
        print("  video     \(plan.metadata.url)  (\(plan.metadata.byteSize) bytes, sha256 \(plan.metadata.sha256))")
        if let take = plan.metadata.effect?.original, let key = take.key {
            print("  take      \(key)  (\(take.byteSize) bytes, sha256 \(take.sha256 ?? "?"): what the \(plan.metadata.effect?.name.rawValue ?? "effect") was made from)")
        }
        if let intro = bookends.intro { print("  intro     \(intro)  (joined before the shot when it is posted: size and checksum change)") }
        if let outro = bookends.outro { print("  outro     \(outro)  (joined after the shot when it is posted)") }
        print("  metadata  \(plan.metadataURL)")
        print("  the name \(plan.metadata.id) is an example; each post draws its own")
        printJSON(plan.metadata)
    }

    /// `error`: why a queued post was not uploaded (its words, kind and case go in the document);
    /// `joined`: the bookends joined to the shot; `kept`: the workspace whose kept shots, not
    /// posted yet, the document names.
    private func printResult(status: String, id: String, item: String?, receipt: PostReceipt?, error: RecorderError?, mail: MailResult? = nil,
                             joined: PostEnqueuer.JoinReport? = nil, kept: ShotWorkspace? = nil) {
        if output.json {
            printJSON(JSONResult(status: status, id: id, outboxItem: item, videoURL: receipt?.videoURL,
                             metadataURL: receipt?.metadataURL, shareURL: receipt?.shareURL, shareExpiresAt: receipt?.shareExpiresAt,
                             error: error?.message, kind: error?.kind.rawValue, failure: error?.qualifiedCaseName, data: error?.caseData, mail: mail,
                             joined: joined.map(Joined.init), keptShots: kept.map { $0.keptShots().map(\.id) }), answersFailure: true)
            return
        }
        defer {
            if let mail { print("  mail      \(mail.status) \(mail.status == "sent" ? "to" : "for") \(mail.to)\(mail.error.map { ": \($0)" } ?? "")") }
        }
        if let receipt {
            print("posted \(receipt.id)")
            print("  video     \(receipt.videoURL)")
            print("  metadata  \(receipt.metadataURL)")
            if let share = receipt.shareURL {
                print("  share     \(share)\(receipt.shareExpiresAt.map { "  (until \($0))" } ?? "")")
            }
        } else {
            print("queued \(id) (not uploaded yet)")
            if let item { print("  outbox    \(item)") }
        }
    }

    /// The `--json` result: absent fields are left out.
    struct JSONResult: Encodable {
        var status: String
        var id: String
        var outboxItem: String?
        var videoURL: String?
        var metadataURL: String?
        /// The link to give a guest (share.base_url, or a presigned S3 link); absent when there is none.
        var shareURL: String?
        var shareExpiresAt: String?
        var error: String?
        /// Why it stayed queued, for a script: the failure's kind and case, as a failed
        /// command's `--json` names them (`storage`, `CLIFailure.uploadStopped`...).
        var kind: String?
        var failure: String?
        /// The failure's data (`{"case": "local", "errno": 2, "retryable": false}`).
        var data: CaseData?
        /// `--email`: what became of the mail.
        var mail: MailResult?
        /// `--intro`/`--outro` (or `post.intro`/`post.outro`): what was joined to the take, and how.
        var joined: Joined?
        /// Recordings kept beside the current shot and not posted yet (`recorder post --shot ID`).
        var keptShots: [String]?
    }

    /// The bookends joined to the take: `take` is `copied` (as recorded) or `encoded` again
    /// (`reencodedBecause` says why: `shotNotH264`, `pictureSizesDiffer`, `h264HeaderDiffers`,
    /// `soundFormatsDiffer`).
    struct Joined: Encodable {
        var intro: String?
        var outro: String?
        var take: String
        var reencodedBecause: String?

        init(_ report: PostEnqueuer.JoinReport) {
            (intro, outro) = (report.intro, report.outro)
            reencodedBecause = report.reencodedBecause.map { String(describing: $0) }  // (the case's name)
            take = report.reencodedBecause == nil ? "copied" : "encoded"
        }
    }

    /// Why the take was encoded again, for the person posting.
    static func words(_ reason: PostEnqueuer.Reencoding) -> String {
        switch reason {
        case .shotNotH264: "the shot's picture is not H.264"
        case .pictureSizesDiffer: "the picture sizes differ"
        case .h264HeaderDiffers:
            "the shot's H.264 header differs from libx264's at the current settings (a camera's own H.264, or shoot.preset, shoot.crf or shoot.bitrate changed since the shot)"
        case .soundFormatsDiffer: "the sound formats differ"
        }
    }

    /// The mail `--email` queued: sent, queued (it goes later: `recorder outbox flush`, or the
    /// kiosk), or refused (kept: `recorder outbox mail`); the address masked.
    struct MailResult: Encodable {
        var id: String
        var status: String
        var to: String
        var error: String?
    }

    /// The mail settings `--email` needs, and a store that gives links to send.
    private func mailSettings(_ configuration: RecorderConfiguration, share: ShareLinks) throws(RecorderError) -> MailSettings {
        guard let settings = try CommandMail.settings(configuration) else { throw RecorderError(CLIMailFailure.noMailServer) }
        let presigns = ShareLinks.presigns(try configuration.makeBackend())
        guard share.baseURL != nil || presigns else { throw RecorderError(CLIMailFailure.noLinkToSend) }
        return settings
    }

    /// Sends what is due now, this post's mail among it, and says what became of that one.
    private func sendMail(_ job: MailJob, settings: MailSettings, configuration: RecorderConfiguration, outbox: Outbox,
                          note: @escaping @Sendable (String) -> Void) throws(RecorderError) -> (result: MailResult, failure: RecorderError?) {
        let delivery = try CommandMail.delivery(configuration, outbox: outbox, settings: settings)
        let pass = try CommandMail.deliver(delivery, note: { if $0.hasPrefix("mail \(job.id) ") == false { note($0) } })
        for event in pass.events {
            switch event {
            case .sent(let id, _, _) where id == job.id:
                return (MailResult(id: id, status: "sent", to: job.maskedAddress, error: nil), nil)
            case .willRetry(let id, _, let failure, _, let next) where id == job.id:
                let why = MailWording.failure(failure)
                return (MailResult(id: id, status: "queued", to: job.maskedAddress, error: why),
                        RecorderError(CLIMailFailure.mailQueued(post: job.postID, mail: id, next: next, failure)))
            case .refused(let id, _, let failure) where id == job.id:
                let why = MailWording.failure(failure)
                return (MailResult(id: id, status: "refused", to: job.maskedAddress, error: why),
                        RecorderError(CLIMailFailure.mailRefused(post: job.postID, mail: id, failure)))
            default: continue
            }
        }
        return (MailResult(id: job.id, status: "queued", to: job.maskedAddress, error: nil), nil)
    }
}
