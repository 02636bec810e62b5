import FoundationEssentials
import Publishing
import Library
import Settings
import SystemSupport
import KioskState
import KioskWords
import Failures

/// `GET /api/admin/overview`: what the operator page shows beyond the status - the outbox post
/// by post with where each goes, guests' mail, the last problems in full, free space, the
/// configuration (secrets masked), guests' deletions, the last purge and where share links point.
package final class OperatorOverview: Sendable {
    private let status: StatusReporter
    private let outbox: Outbox
    private let library: KioskLibrary
    private let mail: KioskMail?
    private let workspace: String
    private let configuration: RecorderConfiguration
    private let problems: ProblemLog
    private let metrics: KioskMetrics
    private let retention: RetentionService

    init(status: StatusReporter, outbox: Outbox, library: KioskLibrary, mail: KioskMail?, workspace: String, configuration: RecorderConfiguration,
         problems: ProblemLog, metrics: KioskMetrics, retention: RetentionService) {
        self.status = status
        self.outbox = outbox
        self.library = library
        self.mail = mail
        self.workspace = workspace
        self.configuration = configuration
        self.problems = problems
        self.metrics = metrics
        self.retention = retention
    }

    package func overview() async -> AdminOverview {
        let status = await status.status()
        let outbox = self.outbox, feed = library.feed, uploading = status.outbox.uploading
        let directories = [("workspace", workspace), ("outbox", outbox.root), ("cache", library.cache.settings.directory)]
            + (feed.localStoreDirectory.map { [("store", $0)] } ?? [])
        let (queued, unreadable, disk) = await BlockingWork.run { () -> ([AdminOverview.QueuedPost], [String], [AdminOverview.Space]) in
            let queued = outbox.items().map { item in
                AdminOverview.QueuedPost(
                    id: item.metadata.id, caption: item.metadata.caption, bytes: item.metadata.byteSize, queuedAt: item.state.queuedAt,
                    attempts: item.state.attempts, lastError: item.state.lastFailure.map { OperatorWords.message(.storage($0)) } ?? item.state.lastError, destination: feed.describe(item.state.destination),
                    videoURL: feed.address(forKey: item.metadata.key), uploading: item.metadata.id == uploading)
            }
            return (queued, outbox.unreadableItems(),
                    directories.map { AdminOverview.Space(what: $0.0, path: $0.1, freeBytes: FileSystem.freeBytes($0.1)) })
        }
        var mail: AdminOverview.Mail?
        if let kioskMail = self.mail { mail = await BlockingWork.run { AdminOverview.Mail(kioskMail) } }
        return AdminOverview(
            status: status, store: feed.storeLocation, outbox: queued, mail: mail, unreadable: unreadable, problems: problems.newestFirst,
            disk: disk,
            configuration: configuration.effectiveValues().map { AdminOverview.Setting(key: $0.key, value: $0.value, origin: $0.origin) },
            guestDeletions: metrics.guestDeletions, retentionOn: library.share.retention != nil, retention: retention.lastOutcome,
            shareLinks: library.share.example(store: feed.store).map { .init(example: $0, opensOnPhones: ShareLinks.opensOnPhones($0)) })
    }
}
