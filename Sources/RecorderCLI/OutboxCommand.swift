import ArgumentParser
import FoundationEssentials
import RecorderCore
import SystemSupport

/// `recorder outbox`: what is waiting for the store, and sending it.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the posts waiting to be uploaded, or upload them.",
        subcommands: [OutboxListCommand.self, OutboxFlushCommand.self],
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
                    attempts: $0.state.attempts, caption: $0.metadata.caption, lastError: $0.state.lastError)
            })
            return
        }
        print(items.isEmpty ? "the outbox is empty (\(outbox.root))" : "\(items.count) post\(items.count == 1 ? "" : "s") queued in \(outbox.root):")
        for item in items {
            let mb = String(cFormat: "%.1f MB", Double(item.metadata.byteSize) / 1_000_000)
            var caption = item.metadata.caption.replacing("\n", with: " ")
            if caption.count > 40 { caption = String(caption.prefix(39)) + "…" }
            print("  \(item.metadata.id)  queued \(item.state.queuedAt)  \(mb)  \(item.state.attempts) attempt(s)  \"\(caption)\"")
            if let error = item.state.lastError { print("      last error: \(error)") }
        }
        for folder in outbox.unreadableItems() {
            printError("recorder: warning: \(folder) is queued but its post.json cannot be read; it is kept and skipped. Repair or move it by hand.")
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
                                      policy: try configuration.retryPolicy(maximumAttempts: attempts),
                                      log: { printError("recorder: note: \($0)") })
        let report = try uploader.flush()
        for receipt in report.uploaded {
            if output.json {
                if let data = try? JSONEncoder().encode(receipt) { print(String(decoding: data, as: UTF8.self)) }
            } else {
                print("posted \(receipt.id)  video \(receipt.videoURL)  metadata \(receipt.metadataURL)")
            }
        }
        if let failure = report.failure {
            throw RecorderError("\(failure.message) \(report.remaining.count) post(s) still queued.", exitStatus: failure.exitStatus)
        }
        if !output.json && report.uploaded.isEmpty { print("nothing to upload") }
    }
}
