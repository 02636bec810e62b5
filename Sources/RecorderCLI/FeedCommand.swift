import ArgumentParser
import FoundationEssentials
import KioskService
import Settings
import Shooting
import Publishing
import Library
import SystemSupport
import KioskWords
import Failures
import Posting

/// `recorder feed`: the posts in the store, newest first, a page at a time.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "List the posts in the store, newest first, a page at a time.",
        discussion: """
        Page numbers shift as new posts arrive; --after ID (the `next` id a page prints) continues exactly \
        where that page ended. Posts uploaded before the feed existed appear after `recorder feed --reindex`.

        With retention.days set, each post shows when it expires (expiresAt in --json); \
        --purge-expired lists the expired posts and --purge-expired --yes deletes them from the store \
        (video, poster and metadata, then the index object, so an interrupted purge is finished by the next). \
        With retention.local_days set, it also lists (and with --yes deletes) this machine's own copies older than that: \
        shots in the workspace, the outbox's records of sent posts, and cached videos not played since; a post still \
        queued for the store is never deleted.
        """)

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Page number, 1 = newest.", valueName: "number"),
            transform: { text in try WholeNumber.parse(text, 1...Int(Int32.max), "the page number (1 is the newest page)") })
    var page: Int?

    @Option(name: [.customShort("n"), .long], parsing: .unconditional,
            help: ArgumentHelp("Posts per page, 1-1000 (default 20).", valueName: "count"), transform: WholeNumber.pageSize)
    var limit: Int?

    // The old name of --limit ("size" is a picture size everywhere else): still works, with a note.
    @Option(name: .customLong("size"), parsing: .unconditional, help: .hidden, transform: WholeNumber.pageSize)
    var deprecatedSize: Int?

    var size: Int { limit ?? deprecatedSize ?? 20 }

    @Option(name: .long, help: ArgumentHelp("Continue after this post id (stable while posts arrive).", valueName: "id"))
    var after: String?

    @Flag(name: .long, help: "Index the posts that have no feed entry yet (once, for posts from older versions).")
    var reindex = false

    @Flag(name: .customLong("purge-expired"), help: "List the posts older than retention.days and this machine's copies older than retention.local_days; with --yes, delete them.")
    var purgeExpired = false

    @Flag(name: .long, help: "With --purge-expired: delete, not only list.")
    var yes = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if page != nil && after != nil { throw ValidationError("use --page or --after, not both.") }
        if limit != nil && deprecatedSize != nil { throw ValidationError("use --limit only (--size is its old name).") }
        if yes && !purgeExpired { throw ValidationError("--yes goes with --purge-expired (it confirms the deletion).") }
        if purgeExpired && (reindex || page != nil || after != nil) {
            throw ValidationError("--purge-expired works on the whole store: leave out --reindex, --page and --after.")
        }
    }

    func run() throws { try execute() }

    private func execute() throws(RecorderError) {
        if deprecatedSize != nil { printError("recorder: note: feed --size is now --limit (-n); --size will go away.") }
        let configuration = try store.configuration()
        let backend = try configuration.makeBackend()
        let feed = PostFeed(store: backend)
        if reindex {
            let report = try feed.reindex(poster: Posters.jpeg)
            if output.json {
                printJSON(report)
            } else {
                print("indexed \(report.added) of \(report.posts) post(s) in \(feed.location)")
                for id in report.damaged { print("  \(id): metadata damaged or missing; listed as such") }
                print("made \(report.posters) poster(s) for posts that had none")
                for (id, why) in report.noPoster.sorted(by: { $0.key < $1.key }) { print("  \(id): no poster: \(why)") }
            }
            return
        }
        let retention = try Retention(configuration)
        if purgeExpired {
            try purge(feed, retention: retention, local: try LocalRetention(configuration), configuration: configuration, location: feed.location)
            return
        }
        var result: FeedPage
        if let after { result = try feed.page(after: after, size: size) } else { result = try feed.page(page ?? 1, size: size) }
        if let retention {
            for index in result.entries.indices {
                result.entries[index].expiresAt = retention.expiresAt(createdAt: result.entries[index].createdAt).map(RFC3339.string)
            }
        }
        // (a store with no post at all is most often the wrong store: said, and not 0)
        if result.entries.isEmpty && after == nil && (page ?? 1) == 1 {
            throw RecorderError(CLIFailure.noPosts(store: feed.location))
        }
        if output.json {
            printJSON(result)
            return
        }
        if result.entries.isEmpty {
            print(result.page.map { "no posts on page \($0) in \(feed.location)" } ?? "no posts after \(after ?? "") in \(feed.location)")
            return
        }
        for entry in result.entries { print(Self.line(entry)) }
        if let next = result.next {
            print("more: recorder feed --after \(next)\(size != 20 ? " --limit \(size)" : "")")
        }
    }

    /// `--purge-expired`: the expired posts, deleted with `--yes`, and this machine's expired copies
    /// (retention.local_days). A post that could not be deleted is named and the status is the
    /// store's failure (the next purge tries it again).
    private func purge(_ feed: PostFeed, retention: Retention?, local: LocalRetention?, configuration: RecorderConfiguration,
                       location: String) throws(RecorderError) {
        guard retention != nil || local != nil else {
            throw RecorderError(CLIFailure.purgeNeedsRetention)
        }
        var report: PurgeReport?
        if let retention {
            // Not by a clock in doubt: behind the store's newest post, before this version was made,
            // or not synchronised as timedatectl tells (a listing says so; --yes deletes nothing).
            let now = SystemClock().date
            let doubt = try feed.clockDoubt(now: now, synchronised: TimeSync.synchronised())
            if let doubt, yes {
                throw RecorderError(CLIFailure.clockInDoubt(doubt))
            }
            report = try feed.purgeExpired(before: retention.cutoff(at: now), scope: try RetentionScope(configuration), dryRun: !yes)
            report?.refused = doubt
            // Guests' mail of expired posts goes with them: never sent, kept addresses forgotten.
            // (a clock in doubt with --yes stopped above: here it is a listing, or a purge by a
            // clock trusted)
            let forgotten = MailQueue(outboxRoot: configuration.outboxDirectory).forget(postsMadeBefore: retention.cutoff(at: now), dryRun: !yes)
            report?.mailsForgotten = forgotten.jobs.count
            report?.addressesForgotten = forgotten.addresses.count
        }
        var localReport: LocalRetention.Report?
        if let local {
            let cache = VideoCache(settings: try configuration.videoCacheSettings())
            localReport = local.purge(workspace: ShotWorkspace(root: configuration.workspaceDirectory),
                                      outbox: Outbox(root: configuration.outboxDirectory), cache: cache, dryRun: !yes)
        }
        let failed = (report?.failed ?? [:]).merging(localReport?.failed ?? [:]) { a, _ in a }
        if output.json {
            if var report {
                report.local = localReport
                printJSON(report, answersFailure: !failed.isEmpty)
            } else {
                printJSON(LocalOnly(local: localReport), answersFailure: !failed.isEmpty)
            }
        } else {
            let verb = yes ? "deleted" : "would delete"
            if let report {
                for post in report.expired where report.failed[post.id] == nil { print("\(post.id)  \(post.createdAt)  \(verb)") }
                for (id, why) in report.failed.sorted(by: { $0.key < $1.key }) { print("\(id)  not deleted: \(why)") }
                if yes {
                    print("deleted \(report.deleted) of \(report.expired.count) post(s) created before \(report.cutoff) from \(location)")
                } else {
                    print("\(report.expired.count) post(s) created before \(report.cutoff) in \(location) are expired; nothing was deleted: add --yes to delete them")
                }
                if report.otherKiosks + report.withoutKiosk > 0 {
                    print("left alone (retention.scope = own): \(report.otherKiosks) expired post(s) of other kiosks, \(report.withoutKiosk) without a kiosk id (retention.scope = store deletes those)")
                }
                if report.mailsForgotten + report.addressesForgotten > 0 {
                    print("\(yes ? "forgot" : "would forget") \(report.mailsForgotten) guest mail(s) waiting to be sent and \(report.addressesForgotten) kept address(es) of the expired posts")
                }
                if let doubt = report.refused { print("warning: --yes would delete nothing now: \(OperatorWords.explanation(doubt))") }
            }
            if let localReport {
                for id in localReport.shots { print("shot \(id)  \(verb)") }
                for id in localReport.sentRecords { print("sent record \(id)  \(verb)") }
                for id in localReport.mailRecords { print("sent mail's record \(id)  \(verb)") }
                for name in localReport.cachedVideos { print("cached video \(name)  \(verb)") }
                for (what, why) in localReport.failed.sorted(by: { $0.key < $1.key }) { print("\(what)  not deleted: \(why)") }
                print("\(yes ? "deleted" : "would delete") \(localReport.count) local cop\(localReport.count == 1 ? "y" : "ies") older than \(localReport.cutoff) (retention.local_days): \(localReport.shots.count) shot(s), \(localReport.sentRecords.count) sent record(s), \(localReport.mailRecords.count) sent mail record(s), \(localReport.cachedVideos.count) cached video(s)\(yes ? "" : "; add --yes to delete them")")
            }
        }
        if let (id, why) = failed.sorted(by: { $0.key < $1.key }).first {
            throw RecorderError(CLIFailure.purgeIncomplete(count: failed.count, id: id, why))
        }
    }

    /// `--purge-expired --json` with only retention.local_days set.
    private struct LocalOnly: Encodable {
        var local: LocalRetention.Report?
    }

    static func line(_ entry: FeedEntry) -> String {
        if let problem = entry.problem { return "\(entry.id)  [\(OperatorWords.feedProblem(problem))]" }
        let seconds = entry.durationSeconds.map { String(cFormat: "%.1f s", $0) } ?? "?"
        let size = entry.byteSize.map { ByteCount.human($0) } ?? "?"
        var caption = entry.caption
        if caption.count > 50 { caption = String(caption.prefix(49)) + "…" }
        let expires = entry.expiresAt.map { "  expires \($0)" } ?? ""
        return "\(entry.id)  \(entry.createdAt)  \(seconds)  \(size)  \(entry.author ?? "?")  \"\(caption)\"\(expires)"
    }
}
