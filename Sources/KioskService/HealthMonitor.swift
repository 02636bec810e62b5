import FoundationEssentials
import Logging
import Publishing
import Settings
import Shooting
import Synchronization
import SystemSupport
import KioskWords
package import KioskState

/// Whether the kiosk is well: the camera loop's heartbeat (for systemd's watchdog and
/// `/healthz`), and whether the booth can take a guest (`check`: camera, disk, store, judged by
/// `OutOfServiceCheck`), told to the guest's flow and the journal when it changes. Timed by the clock
/// handed in.
package final class HealthMonitor: Sendable {
    /// How long the camera loop may go without a beat before the kiosk counts as stuck.
    static let loopTimeout = Duration.seconds(10)

    private let clock: any RecorderClock
    private let manager: CameraManager
    private let drain: OutboxDrain
    private let library: KioskLibrary
    private let guests: GuestCoordinator
    private let logger: Logger
    private let workspace: String
    private let needed: Int64
    private let lastBeat = Mutex<ContinuousClock.Instant?>(nil)
    /// Signalled once the camera's presence was first checked (READY=1 waits for it).
    let cameraReady = Signal()

    init(settings: KioskSettings, manager: CameraManager, drain: OutboxDrain, library: KioskLibrary, guests: GuestCoordinator,
         logger: Logger, clock: any RecorderClock) {
        self.clock = clock
        self.manager = manager
        self.drain = drain
        self.library = library
        self.guests = guests
        self.logger = logger
        workspace = settings.workspace.root
        needed = settings.shotRequest().bytesNeeded
    }

    /// The camera loop went round.
    package func beat() {
        let now = clock.now
        lastBeat.withLock { $0 = now }
    }

    /// Whether the camera loop went round within `loopTimeout`.
    var isCameraLoopAlive: Bool {
        guard let last = lastBeat.withLock({ $0 }) else { return false }
        return clock.now - last < Self.loopTimeout
    }

    /// Looks at the camera, the disk and the store, and tells the guest's flow whether the booth
    /// can take a guest (the pages hear of a change); the journal says when it goes out of service
    /// and why, and when it is back.
    @discardableResult
    package func check() async -> OutOfService? {
        let state = await manager.recordState
        let outbox = drain.outbox, queued = drain.status, library = self.library
        let (workspace, needed) = (self.workspace, self.needed)
        let (disk, oldest) = await BlockingWork.run { () -> (DiskSpace, OutOfServiceCheck.Queue?) in
            let disk = DiskSpace.measure(workspace: workspace, outbox: outbox.root, needed: needed)
            guard let first = queued.queued.first, let item = outbox.item(id: first),
                  let since = RFC3339.date(item.state.queuedAt) else { return (disk, nil) }
            return (disk, OutOfServiceCheck.Queue(count: queued.queued.count, oldest: since, lastError: queued.lastFailure?.text(),
                                             linksWaitForUpload: library.linkWaitsForUpload(item.metadata)))
        }
        let judged = OutOfServiceCheck.judge(camera: state, disk: disk, queue: oldest, now: clock.date)
        let before = guests.outOfService
        guests.handle(.serviceChecked(judged))
        if judged != before {
            if let judged {
                logger.warning("out of service (the guest page says it is back in a moment): \(judged.reasons.joined(separator: "; "))")
            } else {
                logger.notice("back in service")
            }
        }
        return judged
    }

    /// Why the kiosk is not healthy, or nothing when it is (`/healthz`).
    package func problems() async -> [String] {
        // Judged when asked: however long the check takes, the loop's heartbeat is not counted
        // stale for it.
        let loopAlive = isCameraLoopAlive
        var problems = await check()?.reasons ?? []
        if !loopAlive { problems.append("the camera loop has not run for over \(Self.loopTimeout.components.seconds) s") }
        return problems
    }
}
