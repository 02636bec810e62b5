import FoundationEssentials
import Logging
import Settings
import Library
import ServiceLifecycle
import SystemSupport
import Synchronization
import Publishing
import Shooting

/// Deletes posts older than `retention.days` from the store, and this machine's copies older than
/// `retention.local_days` (shots, sent records, cached videos): when the kiosk starts, then every
/// hour. A purge cut short (a crash, the store away, a shot being recorded) is finished by the next one.
struct RetentionService: Service {
    let kiosk: Kiosk
    static let interval = Duration.seconds(3600)

    func run() async throws {
        let retention = kiosk.library.share.retention, local = kiosk.localRetention
        guard retention != nil || local != nil else {
            // Nothing to do; a service that returned would end the group.
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let retention { await Self.purge(kiosk, retention) }
                if let local { await Self.purge(kiosk, local) }
                try await Task.sleep(for: Self.interval)
            }
        }
    }

    /// One purge, told in the journal and on the operator page, and counted. While the clock is
    /// in doubt nothing is deleted, and both say why.
    static func purge(_ kiosk: Kiosk, _ retention: Retention, now: Date = Date()) async {
        let scope = kiosk.retentionScope
        do throws(APIError) {
            let report = try await kiosk.library.purgeExpired(retention, scope: scope, now: now, timedatectl: kiosk.settings.timedatectl)
            kiosk.metrics.postsExpired(report.deleted)
            let (name, id): (String, String) = switch scope {
            case .own(let id): ("own", id)
            case .store: ("store", (try? KioskID.configured(kiosk.configuration)) ?? "")
            }
            kiosk.retentionOutcome.withLock {
                $0 = RetentionOutcome(at: RFC3339.string(now), scope: name, kiosk: id, deleted: report.deleted, otherKiosks: report.otherKiosks,
                                      withoutKiosk: report.withoutKiosk, refused: report.refused, refusedBecause: report.refused.map(OperatorWords.explanation))
            }
            if let doubt = report.refused {
                kiosk.logger.warning("retention: no expired post deleted: \(OperatorWords.explanation(doubt))")
                return
            }
            if report.deleted > 0 {
                kiosk.logger.notice("retention: deleted \(report.deleted) post(s) created before \(report.cutoff) (retention.days)")
            }
            if report.withoutKiosk > 0 {
                kiosk.logger.notice("retention: \(report.withoutKiosk) expired post(s) have no kiosk id (made before kiosks had ids) and are kept: retention.scope = own deletes only this kiosk's (\(id)). Set retention.scope = store on the one kiosk that looks after this store, or delete them once: recorder feed --purge-expired --yes --set retention.scope=store")
            }
            for (id, why) in report.failed.sorted(by: { $0.key < $1.key }) {
                kiosk.logger.warning("retention: post \(id) is expired but could not be deleted now (tried again within the hour): \(why)")
            }
        } catch {
            kiosk.logger.warning("retention: cannot look for expired posts now (tried again within the hour): \(error.message)")
        }
    }

    /// One purge of this machine's copies, while the current shot is held still (a shot being
    /// recorded puts it off to the next hour).
    static func purge(_ kiosk: Kiosk, _ local: LocalRetention, now: Date = Date()) async {
        let workspace = kiosk.settings.workspace, outbox = kiosk.drain.outbox, cache = kiosk.library.cache
        let report: LocalRetention.Report
        do throws(RecorderError) {
            report = try await kiosk.manager.holdingCurrentShot { () async throws(RecorderError) -> LocalRetention.Report in
                await BlockingWork.run { local.purge(workspace: workspace, outbox: outbox, cache: cache, now: now, dryRun: false) }
            }
        } catch {
            kiosk.logger.info("retention: this machine's copies wait for the next hour: \(error.message)")
            return
        }
        kiosk.metrics.localCopiesExpired(report.count)
        if report.count > 0 {
            kiosk.logger.notice("retention: deleted \(report.shots.count) shot(s), \(report.sentRecords.count) sent record(s) and \(report.cachedVideos.count) cached video(s) older than \(report.cutoff) (retention.local_days)")
        }
        if !report.shots.isEmpty { kiosk.announce.call("shot") }
        for (what, why) in report.failed.sorted(by: { $0.key < $1.key }) {
            kiosk.logger.warning("retention: \(what) is expired but could not be deleted now (tried again within the hour): \(why)")
        }
    }
}
