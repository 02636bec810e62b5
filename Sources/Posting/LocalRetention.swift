package import FoundationEssentials
package import Settings
package import Shooting
package import Publishing
package import Failures
package import SystemSupport
package import Library

/// How long this machine keeps its own copies (`retention.local_days`): shots in the workspace
/// (the current one and kept ones, posted or not), the outbox's records of sent posts, and cached
/// videos not played for that long. The kiosk's hourly timer and `recorder feed --purge-expired`
/// purge them. A post still queued for the store is never deleted: it has not arrived anywhere yet.
package struct LocalRetention: Sendable, Equatable {
    /// The copies' life.
    package let life: Retention

    package init(days: Double) {
        life = Retention(days: days)
    }

    /// `retention.local_days`; nil when it is 0 or not set.
    package init?(_ configuration: RecorderConfiguration) throws(RecorderError) {
        guard let life = try Retention(configuration, key: "retention.local_days") else { return nil }
        self.life = life
    }

    /// What a purge deleted (`LocalRetentionReport`, Library: the store's purge reports it too).
    package typealias Report = LocalRetentionReport

    /// The workspace's shots (the current one and kept ones) older than the cutoff at `now`.
    package func expiredShots(in workspace: ShotWorkspace, now: Date = Date()) -> [Shot] {
        let cutoff = life.cutoff(at: now)
        return ([workspace.currentShot()].compactMap { $0 } + workspace.keptShots()).filter { $0.createdAt < cutoff }
    }

    /// Purges the copies older than the cutoff at `now`: the workspace's shots unless `shots` is
    /// false, the outbox's records and the cache's videos unless `records` is false. The workspace
    /// is locked while its shots go (a shot being recorded keeps them for the next purge); the
    /// caller holds the current shot still for them (the kiosk: `CameraManager.holdingCurrentShot`).
    package func purge(workspace: ShotWorkspace, outbox: Outbox, cache: VideoCache?, now: Date = Date(), dryRun: Bool,
                       shots: Bool = true, records: Bool = true) -> Report {
        let cutoff = life.cutoff(at: now)
        var report = Report(cutoff: RFC3339.string(cutoff), dryRun: dryRun)
        let old = shots ? expiredShots(in: workspace, now: now) : []
        if !old.isEmpty {
            if dryRun {
                report.shots = old.map(\.id)
            } else {
                do throws(RecorderError) {
                    let lock = try workspace.lock()
                    let current = workspace.currentShotID()
                    for shot in old {
                        do throws(RecorderError) {
                            if shot.id == current { try workspace.discardCurrent(id: shot.id) } else { try workspace.removeKept(id: shot.id) }
                            report.shots.append(shot.id)
                        } catch {
                            report.failed["shot \(shot.id)"] = error
                        }
                    }
                    _ = consume lock
                } catch {
                    for shot in old { report.failed["shot \(shot.id)"] = error }
                }
            }
        }
        guard records else { return report }
        report.sentRecords = outbox.removeSentRecords(before: cutoff, dryRun: dryRun)
        report.mailRecords = MailQueue(outboxRoot: outbox.root).removeReceipts(sentBefore: cutoff, dryRun: dryRun)
        report.cachedVideos = cache?.removeUnused(before: cutoff, dryRun: dryRun).map(\.name) ?? []
        return report
    }
}
