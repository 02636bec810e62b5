import Logging
import Publishing
import ServiceLifecycle
import SystemSupport
import Shooting
import KioskHTTP

/// Keeps the camera side of the kiosk going: watches for the camera leaving and coming back,
/// closes an unwatched preview, beats the camera loop's heartbeat and has the booth's service
/// checked (so it comes back by itself). On shutdown it stops a shot under way and waits until the
/// recorded part is finished and kept. Every wait is on the clock handed in.
struct CameraService: Service {
    let manager: CameraManager
    let health: HealthMonitor
    let preview: LivePreview
    let connections: ConnectionLimits
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: any RecorderClock
    /// How often the loop goes round.
    var tick: Duration = .seconds(1)
    /// How often the camera's presence is checked while it is not in use, and the booth's service.
    var probeInterval: Duration = .seconds(2)

    func run() async throws {
        await manager.checkCamera()
        await health.check()
        health.beat()
        health.cameraReady.signal()
        // The periodic work ends the moment a graceful shutdown begins (its sleep is cancelled),
        // not at the next tick.
        await cancelWhenGracefulShutdown { await tickUntilCancelled() }
        // SIGTERM during a shot: finish and keep what was recorded, then let the process exit.
        let state = await manager.recordState
        notifier.stopping(status: state.isBusy ? "stopping: finishing the shot under way" : "stopping")
        if await manager.stop() {
            logger.notice("stopping: finishing the shot under way")
        }
        await manager.waitForShot()
        await manager.expirePreview(idleSeconds: 0)
        preview.close()
    }

    /// Every `tick`: the camera loop's heartbeat, a presence probe and a service check every
    /// `probeInterval`, an unwatched preview closed, and the memory a crowd used given back once
    /// it left.
    private func tickUntilCancelled() async {
        var sinceProbe: Duration = .zero
        while !Task.isCancelled {
            do { try await clock.sleep(for: tick) } catch { return }
            health.beat()
            sinceProbe += tick
            if sinceProbe >= probeInterval {
                sinceProbe = .zero
                await manager.checkCamera()
                await health.check()
            }
            await manager.expirePreview(idleSeconds: manager.previewIdleSeconds)
            if connections.crowdLeft() {
                // (whether any page went back changes nothing here: the next crowd's leaving tries again)
                _ = await BlockingWork.run { FreedMemory.giveBack() }
            }
        }
    }
}

/// Runs the outbox drain thread for the life of the service group.
struct OutboxDrainService: Service {
    let drain: OutboxDrain

    func run() async throws {
        drain.start()
        try? await gracefulShutdown()
        // Waiting (up to 5 s) for the transfer in progress blocks: not on the cooperative pool.
        let drain = self.drain
        await BlockingWork.run { drain.stop() }
    }
}

/// The guests' mail's thread (`mail.*` set), for the life of the kiosk.
struct MailDrainService: Service {
    let drain: MailDrain

    func run() async throws {
        drain.start()
        try? await gracefulShutdown()
        // Waiting (up to 5 s) for the mail going out now blocks: not on the cooperative pool.
        let drain = self.drain
        await BlockingWork.run { drain.stop() }
    }
}
