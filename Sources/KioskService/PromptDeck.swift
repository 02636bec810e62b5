import Settings
import Synchronization

/// `kiosk.prompts`: which question the booth shows now. One deck for the kiosk, so the page and
/// the booth's button agree: the page shows `current`, and a shot started either way records it.
/// The question moves on every `kiosk.prompt_seconds` while nobody records; it stays put from the
/// start of a shot until `kiosk.review_seconds` after it ends, so a retake answers the same one.
final class PromptDeck: Sendable {
    let prompts: Prompts
    let interval: Duration
    private struct State {
        var index: Int
        var shownSince: ContinuousClock.Instant
        /// Held until then after a shot (the review); nil: moving, unless `heldForShot`.
        var heldUntil: ContinuousClock.Instant?
        var heldForShot = false
    }
    private let state: Mutex<State>

    init(_ prompts: Prompts, seconds: Double) {
        self.prompts = prompts
        interval = .milliseconds(Int64(seconds * 1000))
        // (a random first question: two booths at one event do not ask in step)
        state = Mutex(State(index: Int.random(in: 0..<prompts.questions.count), shownSince: .now))
    }

    /// The question shown now: its text, its number (1-based) and how many there are.
    var current: KioskStatus.Prompt {
        state.withLock { KioskStatus.Prompt(text: prompts.questions[$0.index], number: $0.index + 1, count: prompts.questions.count) }
    }

    /// Moves to the next question when it is due and nothing holds it; true when it moved.
    func advanceIfDue(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard prompts.questions.count > 1, !state.heldForShot else { return false }
            if let until = state.heldUntil {
                guard now >= until else { return false }
                state.heldUntil = nil
                state.shownSince = now
                return false
            }
            guard now - state.shownSince >= interval else { return false }
            state.index = (state.index + 1) % prompts.questions.count
            state.shownSince = now
            return true
        }
    }

    /// A shot starts: the question it answers, held until `release`.
    func holdForShot() -> String {
        state.withLock { state in
            state.heldForShot = true
            return prompts.questions[state.index]
        }
    }

    /// The shot is over (kept, failed, called off): the question stays `review` longer, for a retake.
    func release(after review: Duration, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard state.heldForShot else { return }
            state.heldForShot = false
            state.heldUntil = now + review
        }
    }
}
