import Logging
import ServiceLifecycle
import TriggerInput
import KioskState

/// The booth's button (`kiosk.trigger`), which recorder reads itself: its presses queue here and
/// are handed to the guest's flow one after another, for the life of the service group. Without
/// a configured button, presses still come from `press()` (the tests'), and nothing is read.
package final class BoothButton: Service, Sendable {
    /// The button read, when `kiosk.trigger` names one (the operator page's preflight looks at it).
    let trigger: TriggerButton?
    private let guests: GuestCoordinator
    private let presses: AsyncStream<Void>.Continuation
    private let pressStream: AsyncStream<Void>

    init(_ choice: TriggerChoice?, guests: GuestCoordinator, events: EventStream, logger: Logger) {
        self.guests = guests
        // (presses while one is acted on wait their turn; a burst beyond a few is one impatient guest)
        let (pressStream, presses) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(4))
        (self.pressStream, self.presses) = (pressStream, presses)
        trigger = choice.map { choice in
            TriggerButton(choice, onPress: { presses.yield() }, onState: { state in
                switch state {
                case .waiting: logger.notice("button \(choice.text): not there (yet)")
                case .ready(let device, let name): logger.notice("button ready: \(name) (\(device))")
                case .unplugged(let device, let name): logger.warning("button unplugged: \(name) (\(device)); waiting for it")
                case .refused(_, let why): logger.error("button: \(why)")
                }
                events.announce("trigger")
            })
        }
    }

    /// One press of the button, as `kiosk.trigger` reports it.
    package func press() {
        presses.yield()
    }

    /// Acts on the presses, one after another, until `stop()`.
    package func follow() async {
        for await _ in pressStream { await guests.press() }
    }

    /// Lets the button go and ends `follow` (the kiosk is stopping: a press must not start a shot now).
    package func stop() {
        trigger?.stop()
        presses.finish()
    }

    /// Follows the presses until the group shuts this down; it is the first service to stop, so
    /// no press starts a shot while the camera finishes the last one.
    package func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.follow() }
            try? await gracefulShutdown()
            stop()
        }
    }

    /// The button as the status shows it; nil with none configured.
    var status: KioskStatus.Trigger? {
        guard let trigger else { return nil }
        let (state, presses) = trigger.state
        var status = KioskStatus.Trigger(setting: trigger.choice.text, state: state.name, presses: presses)
        switch state {
        case .waiting: break
        case .ready(let device, let name), .unplugged(let device, let name): (status.device, status.name) = (device, name)
        case .refused(let device, let why): (status.device, status.message) = (device, why)
        }
        return status
    }
}
