package import FoundationEssentials
package import Logging
package import ServiceLifecycle
import Synchronization
package import SystemSupport
package import Publishing
import Library
package import Settings
package import Shooting
import StoreValues
import PreflightValues
package import Fleet
package import FleetValues
import KioskWords
package import Failures

/// The kiosk's heartbeat in the store (`fleet.heartbeat_seconds`, `fleet/<kiosk.id>.json`): at
/// start, then every interval on the clock handed in, the booth's state as of now (`snapshot`)
/// overwrites its last one. Written straight to the store, not through the outbox: a booth that
/// cannot reach the store goes silent for the fleet, which is what the fleet must see; the booth
/// itself keeps the failure (its `/metrics`, its fleet page) and tries again at the next beat.
package final class HeartbeatService: Service, Sendable {
    package let kioskID: String
    package let interval: Duration
    package let history: BoothHistory
    private let name: String
    private let settings: KioskSettings
    private let parts: Parts
    /// The store the heartbeats go to (and the fleet page reads).
    package let store: HeartbeatStore
    private let window = CaptureWindow()
    private let clock: any RecorderClock
    private let logger: Logger
    private let run: String
    private let startedAt: Date
    private let startedInstant: ContinuousClock.Instant
    /// The last answer about the clock's synchronisation, and when it was asked (a process each time).
    private let synchronised = Mutex<(Bool?, ContinuousClock.Instant)?>(nil)
    /// Whose failure the journal was told (once per outage, not at every beat).
    private let toldFailure = Mutex<String?>(nil)
    /// Heartbeats are written one at a time, on a thread of their own: a store that stalls holds
    /// up no status request behind it.
    private static let writer = BlockingWork(name: "recorder-beat", threads: 1)

    /// The services a heartbeat reads (the kiosk's status as a call: its reporter is the kiosk's).
    package struct Parts: Sendable {
        var run: String
        var status: @Sendable () async -> KioskStatus
        var manager: CameraManager
        var drain: OutboxDrain
        var mailQueue: MailQueue?
        var problems: ProblemLog
        var preflight: PreflightService

        package init(run: String, status: @escaping @Sendable () async -> KioskStatus, manager: CameraManager, drain: OutboxDrain,
                     mailQueue: MailQueue?, problems: ProblemLog, preflight: PreflightService) {
            self.run = run
            self.status = status
            self.manager = manager
            self.drain = drain
            self.mailQueue = mailQueue
            self.problems = problems
            self.preflight = preflight
        }
    }

    package init(settings: KioskSettings, configuration: RecorderConfiguration, parts: Parts, history: BoothHistory,
         logger: Logger, clock: any RecorderClock) throws(RecorderError) {
        kioskID = try KioskID.configured(configuration)
        name = configuration.author.name
        interval = .seconds(settings.heartbeatSeconds)
        store = HeartbeatStore(store: try configuration.makeBackend())
        self.settings = settings
        self.parts = parts
        self.history = history
        self.logger = logger
        self.clock = clock
        run = parts.run
        startedAt = clock.date
        startedInstant = clock.now
        _ = window.take(parts.manager.frames.counts, at: clock.now)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.beat()
                do { try await self.clock.sleep(for: self.interval) } catch { return }
            }
        }
    }

    /// One heartbeat: made now and written over the last one; the outcome kept and, when it
    /// changes, told to the journal.
    package func beat() async {
        let heartbeat = await snapshot()
        let store = self.store
        do throws(StorageError) {
            try await Self.writer.run { () throws(StorageError) in try store.write(heartbeat) }
            history.heartbeatWritten(at: clock.now)
            if toldFailure.withLock({ $0.take() }) != nil { logger.notice("the heartbeat reaches the store again") }
        } catch {
            let words = OperatorWords.text(RecorderError(error))
            history.heartbeatFailed(at: clock.now, words: words)
            let first = toldFailure.withLock { told in
                defer { told = words }
                return told == nil
            }
            if first { logger.warning("the heartbeat did not reach the store (the fleet sees this booth as offline until it does): \(words)") }
        }
    }

    /// How long ago a heartbeat last reached the store (since the start before the first).
    package var heartbeatAge: Double {
        let since = history.now.heartbeatWrittenAt ?? startedInstant
        return Double((clock.now - since).components.seconds)
    }

    /// This booth for its own fleet page: as of now, and whether its heartbeats reach the store.
    package func own() async -> FleetView.Own {
        let heartbeat = await snapshot()
        let failure = history.now.heartbeatFailure
        return FleetView.Own(heartbeat: heartbeat, failing: failure.map { (Int((clock.now - $0.since).components.seconds), $0.words) })
    }

    /// The booth as of now, as its heartbeat tells it.
    package func snapshot() async -> Heartbeat {
        let status = await parts.status()
        let now = clock.now
        let (oldest, mail) = await files()
        let synchronised = await clockSynchronised(now)
        return KioskHeartbeat(
            kiosk: kioskID, name: name, version: RecorderVersion.string, run: run, startedAt: startedAt,
            intervalSeconds: Int(interval.components.seconds), facts: history.now, now: now, date: clock.date,
            minute: window.take(parts.manager.frames.counts, at: now), oldestQueued: oldest, mail: mail, synchronised: synchronised,
            doctor: parts.preflight.last, lastProblem: parts.problems.newestFirst.first, shot: settings.shotRequest()
        ).heartbeat(status)
    }

    /// When the oldest queued post was queued, and the mail queue's counts: files, read on a helper thread.
    private func files() async -> (Date?, MailQueue.Counts?) {
        let drain = parts.drain, queue = parts.mailQueue
        return await BlockingWork.run { () -> (Date?, MailQueue.Counts?) in
            let oldest = drain.status.queued.first.flatMap { drain.outbox.item(id: $0) }.flatMap { RFC3339.date($0.state.queuedAt) }
            return (oldest, queue?.counts())
        }
    }

    /// Whether a time service has synchronised the clock (`timedatectl`), asked at most once a minute.
    private func clockSynchronised(_ now: ContinuousClock.Instant) async -> Bool? {
        if let (known, at) = synchronised.withLock({ $0 }), now - at < .seconds(60) { return known }
        let timedatectl = settings.timedatectl
        let answer = await BlockingWork.run { TimeSync.synchronised(timedatectl: timedatectl) }
        synchronised.withLock { $0 = (answer, now) }
        return answer
    }
}
