import Logging
import Publishing
import ServiceLifecycle
import Synchronization
import SystemSupport
import Shooting

/// Keeps the camera side of the kiosk going: watches for the camera leaving and coming back, closes
/// an unwatched preview, and keeps the event streams alive. On shutdown it stops a shot under way
/// and waits until the recorded part is finished and kept.
struct CameraService: Service {
    let kiosk: Kiosk
    /// How often the camera's presence is checked while it is not in use.
    var probeInterval: Duration = .seconds(2)
    var tick: Duration = .seconds(1)

    func run() async throws {
        await kiosk.wire()
        await withDiscardingTaskGroup { group in
            // The event stream's one publisher, for as long as the camera side runs.
            group.addTask { await kiosk.publishEvents() }
            group.addTask { await kiosk.followButton() }
            await watchCamera()
            // What was announced while stopping still reaches the clients, then their streams end.
            kiosk.endEvents()
        }
        kiosk.hub.finishAll()
    }

    private func watchCamera() async {
        let manager = kiosk.manager
        await manager.checkCamera()
        kiosk.cameraLoopTick.store(MonotonicClock.nowMicroseconds(), ordering: .relaxed)
        kiosk.cameraReady.signal()
        // The periodic work ends the moment a graceful shutdown begins (its sleep is cancelled),
        // not at the next tick.
        await cancelWhenGracefulShutdown { await tickUntilCancelled() }
        kiosk.stopButton()
        // SIGTERM during a shot: finish and keep what was recorded, then let the process exit.
        let state = await manager.recordState
        kiosk.notifier.stopping(status: state.isBusy ? "stopping: finishing the shot under way" : "stopping")
        if await manager.stop() {
            kiosk.logger.notice("stopping: finishing the shot under way")
        }
        await manager.waitForShot()
        await manager.expirePreview(idleSeconds: 0)
    }

    /// Every `tick`: the camera loop's heartbeat, a presence probe every `probeInterval`, an
    /// unwatched preview closed, a keep-alive to the event streams every 15 s, and the memory a
    /// crowd used given back once it left.
    private func tickUntilCancelled() async {
        let manager = kiosk.manager
        var sinceProbe: Duration = .zero
        var sinceKeepAlive: Duration = .zero
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            if Task.isCancelled { return }
            kiosk.cameraLoopTick.store(MonotonicClock.nowMicroseconds(), ordering: .relaxed)
            sinceProbe += tick
            sinceKeepAlive += tick
            if sinceProbe >= probeInterval {
                sinceProbe = .zero
                await manager.checkCamera()
            }
            await manager.expirePreview(idleSeconds: manager.previewIdleSeconds)
            if sinceKeepAlive >= .seconds(15) {
                sinceKeepAlive = .zero
                kiosk.hub.keepAlive()
            }
            if kiosk.limits.connections.crowdLeft() {
                await BlockingWork.run { FreedMemory.giveBack() }
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
