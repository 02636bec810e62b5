import FoundationEssentials
import HTTPTypes
package import Shooting
import Synchronization
import Settings

/// `kiosk.consent`: no shot starts without a guest's yes to the consent text, however it is
/// started (the guest page, the API, the booth's button). The yes is given on the guest page,
/// which shows the text, and only there: a press of the booth's button while none is given is
/// handed to the page (`buttonPresses` in the status), which shows the text or, when it is
/// showing it, takes the press as the yes.
///
/// A yes holds for one guest: their first shot, then their retakes while they review it, until
/// they post or delete their clip, the page returns to the start screen, or `lifetime` passes
/// without a shot. Once a shot was recorded under it, a yes starts only a retake the page asks
/// for by naming the shot under review (which must be the current shot, recorded under this
/// yes): the booth's button and a plain shoot never start a shot under it, since whoever presses
/// may be the next person in the queue, who has agreed to nothing.
package final class ConsentGate: Sendable {
    /// How long a yes lasts after it was given or last started a shot.
    package static let lifetime = Duration.seconds(300)

    package let text: ConsentText
    private let clock: KioskClock
    private struct State {
        var given: GivenConsent?
        /// A shot was started under the yes: from now on only its guest's retakes use it.
        var used = false
        var lastUse: ContinuousClock.Instant
        var buttonPresses = 0
    }
    private let state: Mutex<State>

    package init(_ text: ConsentText, clock: KioskClock = KioskClock()) {
        self.text = text
        self.clock = clock
        state = Mutex(State(lastUse: clock.instant))
    }

    /// The guest said yes to the text with this digest (the page sends the one it showed).
    func give(textSha256: String) throws(APIError) {
        guard textSha256 == text.sha256 else {
            throw APIError(.conflict, "the consent text the page showed (SHA-256 \(textSha256.prefix(64))) is not the kiosk's (\(text.sha256)): kiosk.consent changed since the page was loaded. The page reloads itself; nothing was recorded.",
                           kind: .badData, guestKey: .consentChanged)
        }
        let given = GivenConsent(text, at: clock.date), now = clock.instant
        state.withLock { $0 = State(given: given, used: false, lastUse: now, buttonPresses: $0.buttonPresses) }
    }

    /// The guest said no, or is done (posted, deleted, walked away): the next one is asked again.
    func end() {
        state.withLock { $0.given = nil }
    }

    /// The yes a shot may start under now, or nil. A yes nothing was recorded under yet starts any
    /// shot; after that only a retake of `retaking`, the current shot under review, when it was
    /// recorded under this very yes. Its lifetime starts again.
    func use(retaking shot: Shot? = nil) -> GivenConsent? {
        let now = clock.instant
        return state.withLock { state in
            guard let given = state.given, now - state.lastUse < Self.lifetime else {
                state.given = nil
                return nil
            }
            if state.used {
                guard let shot, shot.consent == given.consent else { return nil }
            }
            state.lastUse = now
            return given
        }
    }

    /// A shot started under `given`: from now on the yes starts only its guest's retakes.
    func started(under given: GivenConsent?) {
        guard let given else { return }
        state.withLock { state in
            if state.given == given { state.used = true }
        }
    }

    /// A press of the booth's button that started nothing, for the page to act on.
    func buttonPressed() {
        state.withLock { $0.buttonPresses += 1 }
    }

    var status: KioskStatus.ConsentStatus {
        let now = clock.instant
        return state.withLock { state in
            let holds = state.given != nil && now - state.lastUse < Self.lifetime
            return KioskStatus.ConsentStatus(textSha256: text.sha256, language: text.language, given: holds, retakesOnly: holds && state.used,
                                             buttonPresses: state.buttonPresses)
        }
    }

    /// The refusal of a shot asked for without a yes.
    static var refusal: APIError {
        APIError(.forbidden, "kiosk.consent is on and no guest has agreed to it: a shot starts only after a yes on the guest page (POST /api/consent {\"answer\": \"yes\", \"textSha256\": ...}). Nothing was recorded.",
                 kind: .denied, guestKey: .consentFirst)
    }

    /// The text as the guest page embeds it (a JSON data block; every less-than sign escaped).
    var pageJSON: String {
        struct Block: Encodable { var text: String; var sha256: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Block(text: text.text, sha256: text.sha256))) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self).replacing("<", with: "\\u003c")
    }
}
