package import FoundationEssentials
import Logging
package import Settings
package import Library
import ServiceLifecycle
package import SystemSupport
import Synchronization
package import Publishing
package import Shooting
import KioskWords
package import KioskHTTP
import KioskState
package import Failures
package import Posting

/// Deletes posts older than `retention.days` from the store, and this machine's copies older than
/// `retention.local_days` (shots, sent records, cached videos): when the kiosk starts, then every
/// hour on the clock handed in. A purge cut short (a crash, the store away, a shot being recorded)
/// is finished by the next one. The last purge's outcome is kept for the operator page.
package final class RetentionService: Service, Sendable {
    static let interval = Duration.seconds(3600)

    /// `retention.local_days`, when set: how long this machine keeps its own copies.
    package let local: LocalRetention?
    /// Whose expired posts this kiosk deletes (`retention.scope`, `kiosk.id`).
    package let scope: RetentionScope
    private let library: KioskLibrary
    private let manager: CameraManager
    private let outbox: Outbox
    /// The guests' mail, when set: woken after a purge, so the mails of the posts it deleted are
    /// forgotten now, not at the drain's next idle look.
    private let mail: MailDrain?
    private let events: EventStream
    private let metrics: KioskMetrics
    private let logger: Logger
    private let clock: any RecorderClock
    private let kioskID: String
    private let timedatectl: String
    private let outcome = Mutex<RetentionOutcome?>(nil)

    init(configuration: RecorderConfiguration, settings: KioskSettings, library: KioskLibrary, manager: CameraManager, outbox: Outbox,
         mail: MailDrain? = nil, events: EventStream, metrics: KioskMetrics, logger: Logger, clock: any RecorderClock) throws(RecorderError) {
        local = try LocalRetention(configuration)
        scope = try RetentionScope(configuration)
        kioskID = (try? KioskID.configured(configuration)) ?? ""
        timedatectl = settings.timedatectl
        self.library = library
        self.manager = manager
        self.outbox = outbox
        self.mail = mail
        self.events = events
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// What the last purge of expired posts did; nil before the first.
    var lastOutcome: RetentionOutcome? { outcome.withLock { $0 } }

    package func run() async throws {
        let retention = library.share.retention, local = self.local
        guard retention != nil || local != nil else {
            // Nothing to do; a service that returned would end the group.
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let retention { await self.purge(retention, now: self.clock.date) }
                if let local { await self.purge(local, now: self.clock.date) }
                do { try await self.clock.sleep(for: Self.interval) } catch { return }
            }
        }
    }

    /// One purge, told in the journal and on the operator page, and counted. While the clock is
    /// in doubt nothing is deleted, and both say why.
    package func purge(_ retention: Retention, now: Date = Date()) async {
        do throws(APIError) {
            let report = try await library.purgeExpired(retention, scope: scope, now: now, timedatectl: timedatectl)
            metrics.postsExpired(report.deleted)
            let (name, id): (String, String) = switch scope {
            case .own(let id): ("own", id)
            case .store: ("store", kioskID)
            }
            outcome.withLock {
                $0 = RetentionOutcome(at: RFC3339.string(now), scope: name, kiosk: id, deleted: report.deleted, otherKiosks: report.otherKiosks,
                                      withoutKiosk: report.withoutKiosk, refused: report.refused, refusedBecause: report.refused.map(OperatorWords.explanation))
            }
            if let doubt = report.refused {
                logger.warning("retention: no expired post deleted: \(OperatorWords.explanation(doubt))")
                return
            }
            if report.deleted > 0 {
                logger.notice("retention: deleted \(report.deleted) post(s) created before \(report.cutoff) (retention.days)")
                mail?.wake()
            }
            if report.withoutKiosk > 0 {
                logger.notice("retention: \(report.withoutKiosk) expired post(s) have no kiosk id (made before kiosks had ids) and are kept: retention.scope = own deletes only this kiosk's (\(id)). Set retention.scope = store on the one kiosk that looks after this store, or delete them once: recorder feed --purge-expired --yes --set retention.scope=store")
            }
            for (id, why) in report.failed.sorted(by: { $0.key < $1.key }) {
                logger.warning("retention: post \(id) is expired but could not be deleted now (tried again within the hour): \(why)")
            }
        } catch {
            logger.warning("retention: cannot look for expired posts now (tried again within the hour): \(error.message)")
        }
    }

    /// One purge of this machine's copies, never while a shot is under way (its disk is the
    /// recording's: all waits for the next hour). Only expired shots need the current shot held
    /// still (a guest's post or delete puts them off to the next hour); the records and cached
    /// videos go without it, so a pass with no expired shot never holds the booth (a guest's
    /// Delete or shutter during it was refused as "posting now").
    package func purge(_ local: LocalRetention, now: Date = Date()) async {
        let workspace = manager.workspace, outbox = self.outbox, cache = library.cache
        if await manager.recordState.isBusy {
            logger.info("retention: this machine's copies wait for the next hour: a shot is under way")
            return
        }
        var report = await BlockingWork.run {
            local.purge(workspace: workspace, outbox: outbox, cache: cache, now: now, dryRun: false, shots: false)
        }
        if await BlockingWork.run({ !local.expiredShots(in: workspace, now: now).isEmpty }) {
            do throws(RecorderError) {
                let shots = try await manager.holdingCurrentShot { () async throws(RecorderError) -> LocalRetention.Report in
                    await BlockingWork.run { local.purge(workspace: workspace, outbox: outbox, cache: cache, now: now, dryRun: false, records: false) }
                }
                report.shots = shots.shots
                report.failed.merge(shots.failed) { first, _ in first }
            } catch {
                logger.info("retention: this machine's expired shots wait for the next hour: \(error.message)")
            }
        }
        metrics.localCopiesExpired(report.count)
        if report.count > 0 {
            logger.notice("retention: deleted \(report.shots.count) shot(s), \(report.sentRecords.count) sent record(s) and \(report.cachedVideos.count) cached video(s) older than \(report.cutoff) (retention.local_days)")
        }
        if !report.shots.isEmpty { events.announce("shot") }
        for (what, why) in report.failed.sorted(by: { $0.key < $1.key }) {
            logger.warning("retention: \(what) is expired but could not be deleted now (tried again within the hour): \(why)")
        }
    }
}
