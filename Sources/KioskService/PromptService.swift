import ServiceLifecycle

/// Moves `kiosk.prompts` on to the next question when it is due, and tells the pages (a status
/// event), so every screen shows the question a shot started now would record.
struct PromptService: Service {
    let kiosk: Kiosk

    func run() async throws {
        guard let deck = kiosk.prompts else {
            // Nothing to do; a service that returned would end the group.
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if deck.advanceIfDue() { kiosk.announce.call("prompt") }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }
}
