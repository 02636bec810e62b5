import Logging
import ServiceLifecycle
import Shooting
import Synchronization
import SystemSupport
import KioskState

/// A restart the operator page asked for, so the kiosk takes the settings the page saved. It
/// waits for a moment between guests (no shot under way, nobody who has agreed, nobody reviewing
/// their clip or reading their thank-you: `GuestFlow.Presence`), then ends the kiosk's services as
/// SIGTERM does (a shot started meanwhile is finished and kept; the outbox and the mail queue are
/// on the disk), and `recorder kiosk` starts itself again in place (`ProcessImage.restart`), so
/// systemd sees the same process reloading, then ready.
package final class KioskRestart: Sendable {
    /// What the page is told.
    package struct Status: Sendable, Equatable, Encodable {
        /// The operator asked for a restart and it has not happened yet.
        package var requested: Bool
        /// Who it waits for (`GuestFlow.Presence`), or nil.
        package var waitingFor: String?
        /// The services are stopping for it.
        package var stopping: Bool
    }

    private struct State {
        var requested = false
        var waitingFor: GuestFlow.Presence?
        var stopping = false
    }

    private let state = Mutex(State())
    private let asked = Signal()

    package init() {}

    /// Asks for a restart at the next moment between guests (asking again changes nothing).
    package func request() {
        let first = state.withLock { state in
            defer { state.requested = true }
            return !state.requested
        }
        if first { asked.signal() }
    }

    package var status: Status {
        state.withLock { Status(requested: $0.requested, waitingFor: $0.waitingFor.map(\.rawValue), stopping: $0.stopping) }
    }

    /// Whether the services stopped for a restart (the daemon then starts the kiosk again).
    package var isStopping: Bool { state.withLock { $0.stopping } }

    /// Waits until a restart is asked for, then for a moment between guests, looking every
    /// `interval` on `clock`; true once it began (the caller ends the services), false when the
    /// task was cancelled first.
    func waitForItsMoment(manager: CameraManager, guests: GuestCoordinator, clock: any RecorderClock,
                          interval: Duration = .seconds(1)) async -> Bool {
        await asked.wait()
        while !Task.isCancelled {
            let busy = await manager.recordState.isBusy
            let presence = busy ? GuestFlow.Presence.shooting : guests.presence
            let begins = state.withLock { state in
                state.waitingFor = presence == .nobody ? nil : presence
                if presence == .nobody { state.stopping = true }
                return state.stopping
            }
            if begins { return true }
            do { try await clock.sleep(for: interval) } catch { return false }
        }
        return false
    }
}

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
        let begins = await cancelWhenGracefulShutdown {
            await restart.waitForItsMoment(manager: manager, guests: guests, clock: clock)
        }
        guard begins else { return }
        logger.notice("restarting to take the operator page's settings: nobody is at the booth")
        notifier.reloading(status: "restarting to take the operator page's settings")
    }
}
