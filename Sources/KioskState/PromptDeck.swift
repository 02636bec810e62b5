package import Settings
import Synchronization
package import SystemSupport

/// `kiosk.prompts`: which question the booth shows now. One deck for the kiosk, so the page and
/// the booth's button agree: the page shows `current`, and a shot started either way records it.
/// The question moves on every `kiosk.prompt_seconds` while nobody records; it stays put from the
/// start of a shot until `kiosk.review_seconds` after it ends, so a retake answers the same one.
/// Timed by the clock handed in; `changed` wakes whoever waits for the next move when a shot
/// holds or lets go of the question.
package final class PromptDeck: Sendable {
    let prompts: Prompts
    let interval: Duration
    /// Signalled when a shot holds or releases the question (the next move's time changed).
    package let changed = ChangeSignal()
    private let clock: any RecorderClock
    private struct State {
        var index: Int
        var shownSince: ContinuousClock.Instant
        /// Held until then after a shot (the review); nil: moving, unless `heldForShot`.
        var heldUntil: ContinuousClock.Instant?
        var heldForShot = false
    }
    private let state: Mutex<State>

    package init(_ prompts: Prompts, seconds: Double, clock: any RecorderClock = .system) {
        self.prompts = prompts
        self.clock = clock
        interval = .milliseconds(Int64(seconds * 1000))
        // (a random first question: two booths at one event do not ask in step)
        state = Mutex(State(index: Int.random(in: 0..<prompts.questions.count), shownSince: clock.now))
    }

    /// The question shown now: its text, its number (1-based) and how many there are.
    package var current: KioskStatus.Prompt {
        state.withLock { KioskStatus.Prompt(text: prompts.questions[$0.index], number: $0.index + 1, count: prompts.questions.count) }
    }

    /// Moves to the next question when it is due and nothing holds it; true when it moved.
    package func advanceIfDue() -> Bool {
        let now = clock.now
        return state.withLock { state in
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

    /// When `advanceIfDue` has something to do next (the question's time is up, or its hold after
    /// a review ends); nil while a shot holds it, or with one question only.
    package var nextChange: ContinuousClock.Instant? {
        state.withLock { state in
            guard prompts.questions.count > 1, !state.heldForShot else { return nil }
            return state.heldUntil ?? state.shownSince + interval
        }
    }

    /// A shot starts: the question it answers, held until `release`.
    package func holdForShot() -> String {
        defer { changed.signal() }
        return state.withLock { state in
            state.heldForShot = true
            return prompts.questions[state.index]
        }
    }

    /// The shot is over (kept, failed, called off): the question stays `review` longer, for a retake.
    package func release(after review: Duration) {
        let now = clock.now
        let released = state.withLock { state -> Bool in
            guard state.heldForShot else { return false }
            state.heldForShot = false
            state.heldUntil = now + review
            return true
        }
        if released { changed.signal() }
    }
}
