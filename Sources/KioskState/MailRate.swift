import Synchronization
package import SystemSupport

/// How many guests' mails the kiosk queues, whoever asks: at most `perMinute` in any minute and
/// `perHour` in any hour (`kiosk.mail_per_minute`, `kiosk.mail_per_hour`). The per-post limit
/// alone let whoever holds the booth's token send 173 mails to any addresses in 32 s, one post
/// after another, from the booth's own mail account.
package final class MailRate: Sendable {
    /// The span a limit counts over.
    package enum Window: String, Sendable, Equatable {
        case minute, hour

        var span: Duration { self == .minute ? .seconds(60) : .seconds(3600) }
    }

    /// Why a mail is refused now: the window whose limit it would pass, that limit, and whether
    /// this is the first refusal since the limit was reached (the operator is told once).
    package struct Reached: Sendable, Equatable {
        package var window: Window
        package var limit: Int
        package var first: Bool
    }

    package let perMinute: Int
    package let perHour: Int
    private let clock: any RecorderClock
    /// When each mail of the last hour was queued, and until when each window's reaching was told.
    private let state = Mutex<(queued: [ContinuousClock.Instant], told: [Window: ContinuousClock.Instant])>(([], [:]))

    package init(perMinute: Int, perHour: Int, clock: any RecorderClock) {
        self.perMinute = perMinute
        self.perHour = perHour
        self.clock = clock
    }

    /// Counts one mail now, or says which limit it would pass (nothing is counted then).
    package func take() -> Reached? {
        let now = clock.now
        return state.withLock { state -> Reached? in
            state.queued.removeAll { now - $0 >= Window.hour.span }
            for (window, limit) in [(Window.minute, perMinute), (.hour, perHour)] {
                let inWindow = state.queued.filter { now - $0 < window.span }
                guard inWindow.count >= limit else { continue }
                let told = state.told[window].map { now < $0 } ?? false
                // (told again once this window has had room since)
                state.told[window] = inWindow[inWindow.count - limit] + window.span
                return Reached(window: window, limit: limit, first: !told)
            }
            state.queued.append(now)
            return nil
        }
    }
}
