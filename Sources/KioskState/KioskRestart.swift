import Synchronization
package import SystemSupport

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
    /// Finished at the first request: its waiter goes on.
    private let asked: AsyncStream<Void>
    private let askedContinuation: AsyncStream<Void>.Continuation

    package init() {
        (asked, askedContinuation) = AsyncStream<Void>.makeStream()
    }

    /// Asks for a restart at the next moment between guests (asking again changes nothing).
    package func request() {
        let first = state.withLock { state in
            defer { state.requested = true }
            return !state.requested
        }
        if first { askedContinuation.finish() }
    }

    package var status: Status {
        state.withLock { Status(requested: $0.requested, waitingFor: $0.waitingFor.map(\.rawValue), stopping: $0.stopping) }
    }

    /// Whether the services stopped for a restart (the daemon then starts the kiosk again).
    package var isStopping: Bool { state.withLock { $0.stopping } }

    /// Waits until a restart is asked for, then for a moment between guests (`presence`: who is at
    /// the booth, `.shooting` while the camera is busy), looking every `interval` on `clock`; true
    /// once it began (the caller ends the services), false when the task was cancelled first.
    package func waitForItsMoment(presence: @Sendable () async -> GuestFlow.Presence, clock: any RecorderClock,
                                  interval: Duration = .seconds(1)) async -> Bool {
        for await _ in asked {}
        while !Task.isCancelled {
            let presence = await presence()
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
