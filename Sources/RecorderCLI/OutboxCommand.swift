import ArgumentParser
import FoundationEssentials
import KioskService
import Publishing
import SystemSupport
import Settings
import KioskWords
import Failures
import Posting

/// `recorder outbox`: what is waiting for the store, and sending it.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the posts waiting to be uploaded, or upload them.",
        subcommands: [OutboxListCommand.self, OutboxFlushCommand.self, OutboxRetargetCommand.self, OutboxMailCommand.self],
        defaultSubcommand: OutboxListCommand.self)
}

struct OutboxListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List queued posts, oldest first.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let outbox = Outbox(root: try store.configuration().outboxDirectory)
        let items = outbox.items()
        if output.json {
            printJSON(items.map {
                Row(id: $0.metadata.id, directory: $0.directory, queuedAt: $0.state.queuedAt, bytes: $0.metadata.byteSize,
                    attempts: $0.state.attempts, caption: $0.metadata.caption,
                    lastError: $0.state.lastFailure.map { CLIWords.message(.storage($0)) } ?? $0.state.lastError,
                    destination: $0.state.destination)
            })
            return
        }
        print(items.isEmpty ? "the outbox is empty (\(outbox.root))" : "\(items.count) post\(items.count == 1 ? "" : "s") queued in \(outbox.root):")
        for item in items {
            let size = ByteCount.human(item.metadata.byteSize)
            var caption = item.metadata.caption.replacing("\n", with: " ")
            if caption.count > 40 { caption = String(caption.prefix(39)) + "…" }
            print("  \(item.metadata.id)  queued \(item.state.queuedAt)  \(size)  \(item.state.attempts) attempt(s)  \"\(caption)\"")
            print("      for \(item.state.destination.map { "\($0)" } ?? "the store of whichever flush sends it (queued before posts kept their store)")")
            if let error = item.state.lastFailure.map({ CLIWords.message(.storage($0)) }) ?? item.state.lastError { print("      last error: \(error)") }
        }
        for folder in outbox.unreadableItems() {
            printError("recorder: warning: \(folder) is queued but its post.json or state.json cannot be read; it is kept and skipped. Repair or move it by hand.")
        }
        let mail = MailQueue(outboxRoot: outbox.root).counts()
        if !output.json && mail.queued + mail.refused + mail.sent > 0 {
            print("mail: \(mail.queued) waiting, \(mail.refused) refused, \(mail.sent) sent (recorder outbox mail lists them)")
        }
    }

    /// One queued post in `--json` output.
    struct Row: Encodable {
        var id: String
        var directory: String
        var queuedAt: String
        var bytes: Int64
        var attempts: Int
        var caption: String
        var lastError: String?
        /// The store the post was queued for (null: queued by a version that did not keep it).
        var destination: PostDestination?
    }
}

struct OutboxFlushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush",
        abstract: "Upload every queued post, oldest first.",
        discussion: "Retryable failures (network, timeouts, 5xx, throttling) are retried with backoff, forever unless --attempts is given. Ctrl-C stops; nothing queued is lost.")

    @Option(name: .long, help: "Attempts per post before giving up for now (default: keep trying).")
    var attempts: Int?

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let attempts, !(1...100_000).contains(attempts) { throw ValidationError("--attempts must be at least 1.") }
    }

    func run() throws {
        let configuration = try store.configuration()
        let uploader = OutboxUploader(outbox: Outbox(root: configuration.outboxDirectory), backend: try configuration.makeBackend(),
                                      policy: try configuration.retryPolicy(maximumAttempts: attempts), share: try ShareLinks(configuration),
                                      poster: Posters.jpeg, log: { printError("recorder: note: \($0.words)") })
        let report = try uploader.flush()
        // Then the guests' mail whose posts are in the store now (and any due from before).
        let mail = try CommandMail.settings(configuration)
        let outbox = Outbox(root: configuration.outboxDirectory)
        var mailPass: MailDelivery.Pass?
        if let mail {
            mailPass = try CommandMail.deliver(try CommandMail.delivery(configuration, outbox: outbox, settings: mail),
                                               note: { printError("recorder: note: \($0)") })
        } else if MailQueue(outboxRoot: outbox.root).counts().queued > 0 {
            printError("recorder: note: guests' mail waits in the outbox, but mail.smtp_url is not set: it goes once it is.")
        }
        for receipt in report.uploaded {
            if output.json {
                printJSON(receipt)
            } else {
                print("posted \(receipt.id)  video \(receipt.videoURL)  metadata \(receipt.metadataURL)")
            }
        }
        let here = try configuration.postDestination()
        for item in report.elsewhere {
            if output.json { printJSON(Elsewhere(id: item.metadata.id, destination: item.state.destination)) }
            printError("recorder: note: post \(item.metadata.id) is queued for \(item.state.destination.map { "\($0)" } ?? "?"), not for this flush's \(here); it stays queued. Flush with that store's settings, or send it to this one: recorder outbox retarget \(item.metadata.id) (with these store options).")
        }
        if report.failure == nil && !output.json && report.uploaded.isEmpty {
            print(report.elsewhere.isEmpty ? "nothing to upload" : "nothing to upload to \(here)")
        }
        // What became of the guests' mail, whatever became of the posts.
        let mailSummary = mailPass.map { MailSummary($0, queue: MailQueue(outboxRoot: outbox.root)) }
        if let mailSummary, mailSummary.isWorthSaying {
            if output.json { printJSON(["mail": mailSummary]) } else { print(mailSummary.line) }
        }
        if let failure = report.failure {
            throw RecorderError(CLIFailure.stillQueued(failure, count: report.remaining.count))
        }
        if let mailSummary, mailSummary.waiting > 0 {
            throw RecorderError(CLIMailFailure.mailsWaiting(count: mailSummary.waiting, next: mailSummary.nextAttemptAt))
        }
    }

    /// What a flush did with the guests' mail (`{"mail": {...}}` in `--json`): sent now, waiting
    /// (tried and not taken, or its last try's wait not over, tried again from `nextAttemptAt`),
    /// waiting for its post to reach the store, refused (kept: `recorder outbox mail --retry`).
    struct MailSummary: Encodable {
        var sent: Int
        var waiting: Int
        var nextAttemptAt: String?
        var waitingForPost: Int
        var refused: Int

        init(_ pass: MailDelivery.Pass, queue: MailQueue) {
            sent = pass.sent
            waiting = pass.waitingForRetry + pass.events.count { if case .willRetry = $0 { true } else { false } }
            nextAttemptAt = pass.nextDue.map(RFC3339.string)
            waitingForPost = pass.waitingForPost
            refused = queue.counts().refused
        }

        /// Whether there is anything to say: a flush with no mail says nothing of mail.
        var isWorthSaying: Bool { sent + waiting + waitingForPost + refused > 0 }

        var line: String {
            var parts = ["\(sent) sent"]
            if waiting > 0 { parts.append("\(waiting) waiting, tried again from \(nextAttemptAt ?? "the next pass")") }
            if waitingForPost > 0 { parts.append("\(waitingForPost) waiting for their post to reach the store") }
            if refused > 0 { parts.append("\(refused) refused (recorder outbox mail --retry ID once fixed)") }
            return "mail: " + parts.joined(separator: ", ")
        }
    }
}

/// `recorder outbox retarget ID`: the one way a queued post goes to another store than the one it
/// was queued for.
struct OutboxRetargetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retarget",
        abstract: "Point a queued post at the store these options configure.",
        discussion: "A post keeps the store it was queued for (backend, endpoint, bucket, prefix or directory); a flush under another configuration leaves it queued. Retarget it to send it to the store given here (--backend, --bucket, --store-dir ..., or the configuration) instead.")

    @Argument(help: "The queued post's id (`recorder outbox` lists them).")
    var id: String?

    @Flag(name: .long, help: "Every queued post that is not queued for this store (after fixing a store's settings).")
    var all = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (id == nil) != (!all) else { throw ValidationError("name one queued post's id, or --all (not both).") }
    }

    func run() throws {
        let configuration = try store.configuration()
        let destination = try configuration.postDestination()
        let outbox = Outbox(root: configuration.outboxDirectory)
        let ids = id.map { [$0] } ?? outbox.items().filter { !$0.state.isFor(destination) || $0.state.destination == nil }.map(\.metadata.id)
        if ids.isEmpty && !output.json { print("every queued post already goes to \(destination)") }
        for id in ids {
            let (item, previous) = try outbox.retarget(id: id, to: destination)
            if output.json {
                printJSON(Retargeted(id: item.metadata.id, destination: destination, previous: previous))
            } else {
                print("post \(item.metadata.id) now goes to \(destination) (was \(previous.map { "\($0)" } ?? "not recorded")); `recorder outbox flush` with these settings sends it")
            }
        }
    }

    struct Retargeted: Encodable {
        var id: String
        var destination: PostDestination
        var previous: PostDestination?
    }
}

/// `recorder outbox mail`: the guests' mail, waiting, refused and sent; `--retry` sends refused ones again.
struct OutboxMailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail",
        abstract: "List the guests' mail (addresses masked): waiting, refused, and how many were sent.",
        discussion: "A mail waits for its post to reach the store, then for the server (retried with backoff). One the server refused for good (5xx), or that the settings keep from going (TLS, no link), is kept and listed with why; after fixing that, --retry ID (or --retry-all) lets it go again with the next `recorder outbox flush` or the kiosk's next pass.")

    @Option(name: .long, help: ArgumentHelp("Send this refused mail again (its id, as listed).", valueName: "id"))
    var retry: String?

    @Flag(name: .customLong("retry-all"), help: "Send every refused mail again.")
    var retryAll = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if retry != nil && retryAll { throw ValidationError("give --retry ID or --retry-all, not both.") }
    }

    func run() throws {
        let queue = MailQueue(outboxRoot: try store.configuration().outboxDirectory)
        if retry != nil || retryAll {
            let ids = retry.map { [$0] } ?? queue.jobs().filter { $0.state == .refused }.map(\.id)
            for id in ids {
                let done: Bool
                do throws(FileSystem.Failure) { done = try queue.retry(jobID: id) } catch {
                    throw RecorderError(CLIMailFailure.cannotRetry(id: id, error))
                }
                guard done else {
                    let refused = queue.jobs().filter { $0.state == .refused }.map(\.id)
                    throw RecorderError(CLIMailFailure.noRefusedMail(id: id, queue: queue.root, refused: refused))
                }
                if !output.json { print("mail \(id) goes again with the next `recorder outbox flush` (or the kiosk's next pass)") }
            }
            if ids.isEmpty && !output.json { print("no mail is refused") }
            return
        }
        let jobs = queue.jobs(), counts = queue.counts()
        if output.json {
            printJSON(Listing(waiting: jobs.filter { $0.state == .queued }.map(Row.init), refused: jobs.filter { $0.state == .refused }.map(Row.init),
                              sent: counts.sent))
            return
        }
        print("mail in \(queue.root): \(counts.queued) waiting, \(counts.refused) refused, \(counts.sent) sent")
        for job in jobs {
            let row = Row(job)
            print("  \(row.id)  post \(row.post)  to \(row.to)  \(row.state)  queued \(row.queuedAt)  \(row.attempts) attempt(s)\(row.nextAttemptAt.map { "  next \($0)" } ?? "")")
            if let error = row.lastError { print("      \(job.state == .refused ? "refused" : "last error"): \(error)") }
        }
        for path in queue.unreadableJobs() {
            printError("recorder: warning: \(path) cannot be read; it is kept and never sent. Repair or remove it by hand.")
        }
    }

    /// One mail as listed; never its address, only a masked one.
    struct Row: Encodable {
        var id: String
        var post: String
        var to: String
        var state: String
        var queuedAt: String
        var attempts: Int
        var nextAttemptAt: String?
        var lastError: String?
        /// The last failure as data: `{"case": "smtp", "cause": {"case": "permanentRefusal",
        /// "value": {"code": 550, "text": "5.1.1 ...", "step": {"case": "recipient"}}}}`.
        var failure: CaseData?

        init(_ job: MailJob) {
            id = job.id
            post = job.postID
            to = job.maskedAddress
            state = job.state.rawValue
            queuedAt = job.queuedAt
            attempts = job.attempts
            nextAttemptAt = job.nextAttemptAt
            lastError = job.lastFailure.map(MailWording.failure)
            failure = job.lastFailure.map { CaseData(encoding: $0) }
        }
    }

    struct Listing: Encodable {
        var waiting: [Row]
        var refused: [Row]
        var sent: Int
    }
}

extension OutboxFlushCommand {
    /// A queued post this flush left for its own store, in `--json` output: `{"id": ...,
    /// "status": "elsewhere", "destination": {...}}`.
    struct Elsewhere: Encodable {
        var id: String
        var status = "elsewhere"
        var destination: PostDestination?
    }
}
