import Logging
import ServiceLifecycle
import Shooting
import SystemSupport
import KioskState

/// Runs `KioskRestart`'s wait among the kiosk's services; when the moment comes it returns, which
/// ends the group gracefully (`successTerminationBehavior: .gracefullyShutdownGroup`).
struct RestartService: Service {
    let restart: KioskRestart
    let manager: CameraManager
    let guests: GuestCoordinator
    let notifier: SystemdNotifier
    let logger: Logger
    let clock: any RecorderClock

    func run() async throws {
        let (manager, guests) = (self.manager, self.guests)
        let begins = await cancelWhenGracefulShutdown {
            await restart.waitForItsMoment(presence: { await manager.recordState.isBusy ? .shooting : guests.presence }, clock: clock)
        }
        guard begins else { return }
        logger.notice("restarting to take the operator page's settings: nobody is at the booth")
        notifier.reloading(status: "restarting to take the operator page's settings")
    }
}
