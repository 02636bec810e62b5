import ArgumentParser
import FoundationEssentials
import Publishing
import SystemSupport
import Settings

/// `recorder outbox`: what is waiting for the store, and sending it.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the posts waiting to be uploaded, or upload them.",
        subcommands: [OutboxListCommand.self, OutboxFlushCommand.self, OutboxRetargetCommand.self],
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
                    attempts: $0.state.attempts, caption: $0.metadata.caption, lastError: $0.state.lastError,
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
            print("      for \(item.state.destination.map(\.description) ?? "the store of whichever flush sends it (queued before posts kept their store)")")
            if let error = item.state.lastError { print("      last error: \(error)") }
        }
        for folder in outbox.unreadableItems() {
            printError("recorder: warning: \(folder) is queued but its post.json or state.json cannot be read; it is kept and skipped. Repair or move it by hand.")
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
                                      log: { printError("recorder: note: \($0)") })
        let report = try uploader.flush()
        for receipt in report.uploaded {
            if output.json {
                printJSON(receipt)
            } else {
                print("posted \(receipt.id)  video \(receipt.videoURL)  metadata \(receipt.metadataURL)")
            }
        }
        let here = try configuration.postDestination()
        for item in report.elsewhere {
            printError("recorder: note: post \(item.metadata.id) is queued for \(item.state.destination.map { "\($0)" } ?? "?"), not for this flush's \(here); it stays queued. Flush with that store's settings, or send it to this one: recorder outbox retarget \(item.metadata.id) (with these store options).")
        }
        if let failure = report.failure {
            throw RecorderError(CLIFailure.stillQueued(failure, count: report.remaining.count))
        }
        if !output.json && report.uploaded.isEmpty {
            print(report.elsewhere.isEmpty ? "nothing to upload" : "nothing to upload to \(here)")
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
