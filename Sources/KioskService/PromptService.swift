import ServiceLifecycle
import SystemSupport
import KioskState

/// Moves `kiosk.prompts` on to the next question when it is due, and tells the pages (a status
/// event), so every screen shows the question a shot started now would record. It sleeps on the
/// clock until the next move is due, or until a shot holds or lets go of the question.
struct PromptService: Service {
    let deck: PromptDeck?
    let events: EventStream
    let clock: any RecorderClock

    func run() async throws {
        guard let deck else {
            // Nothing to do; a service that returned would end the group.
            try? await gracefulShutdown()
            return
        }
        let events = self.events, clock = self.clock
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let seen = deck.changed.generation
                if deck.advanceIfDue() { events.announce("prompt") }
                // Held by a shot: until it lets go (an hour at most, then looked at again).
                let wait = deck.nextChange.map { clock.now.duration(to: $0) } ?? .seconds(3600)
                if wait > .zero { await deck.changed.wait(after: seen, timeout: wait, clock: clock) }
            }
        }
    }
}
