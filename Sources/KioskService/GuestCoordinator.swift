import FoundationEssentials
import Logging
package import ShotValues
import Shooting
import Synchronization
import SystemSupport
import KioskWords
import KioskHTTP
package import KioskState
import Failures

/// Runs the guest's flow (`GuestFlow`): the guest page's requests, the booth's button and the
/// camera's events are handed to it as events, at the clock's time, and this does what it says -
/// starts a shot (with the question on screen, `kiosk.prompts`), hands a press to the camera,
/// refuses, tells the pages, counts the answers.
package final class GuestCoordinator: Sendable {
    private let flow: Mutex<GuestFlow>
    private let clock: any RecorderClock
    private let manager: CameraManager
    private let settings: KioskSettings
    private let prompts: PromptDeck?
    private let events: EventStream
    private let metrics: KioskMetrics
    private let logger: Logger
    /// The effect the guest chose last on the start screen (`kiosk.effects`); nil: the default.
    private let chosen = Mutex<ClipEffect?>(nil)

    init(settings: KioskSettings, manager: CameraManager, prompts: PromptDeck?, events: EventStream, metrics: KioskMetrics,
         logger: Logger, clock: any RecorderClock) {
        flow = Mutex(GuestFlow(consent: settings.consent))
        self.settings = settings
        self.manager = manager
        self.prompts = prompts
        self.events = events
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// Hands `event` to the flow now, does the effects that need nothing more (announcements,
    /// counts), and returns the others.
    @discardableResult
    package func handle(_ event: GuestFlow.Event) -> [GuestFlow.Effect] {
        let now = clock.now
        let effects = flow.withLock { $0.handle(event, at: now) }
        return effects.filter { effect in
            switch effect {
            case .announce(let kind): events.announce(kind)
            case .countAnswer(let answer): metrics.consentAnswered(answer)
            case .startShot, .press, .refuse: return true
            }
            return false
        }
    }

    // MARK: - The guest page and the API

    /// A shot the page or the API asks for; `retaking` is the current shot when the request names
    /// it as the one under review. Refused without a yes that may start it, out of service, or when
    /// the camera cannot start one.
    func shoot(seconds: Double, countdown: Int, retaking: Shot?, effect: ClipEffect? = nil) async throws(APIError) {
        if let effect { choose(effect) }
        for effect in handle(.shootAsked(retaking: retaking)) {
            switch effect {
            case .refuse(let refusal): throw Self.error(refusal)
            case .startShot(let consent):
                let request = shotRequest(seconds: seconds, consent: consent, effect: self.effect)
                do {
                    try await manager.begin(request, countdown: countdown)
                } catch {
                    await releasePromptUnlessRecording()
                    throw APIError(RecorderError.wrap(error))
                }
                handle(.shotStarted(under: consent))
            case .press, .announce, .countAnswer: break
            }
        }
    }

    /// The guest page's answer to `kiosk.consent`: yes (with the digest of the text it showed),
    /// no, or done (the guest left: their yes ends).
    func answer(_ answer: String?, textSha256: String?) throws(APIError) {
        guard settings.consent != nil else { throw Self.error(.consentOff) }
        let event: GuestFlow.Event
        switch answer {
        case "yes":
            guard let textSha256 else {
                throw APIError.badRequest("textSha256 is required with a yes: the SHA-256 of the text the guest was shown (status.consent.textSha256).")
            }
            event = .agreed(textSha256: textSha256, date: clock.date)
        case "no": event = .declined
        case "done": event = .done
        default:
            throw APIError.badRequest("answer must be yes, no or done (got \(answer.map { "'\($0.prefix(40))'" } ?? "nothing")).")
        }
        for case .refuse(let refusal) in handle(event) { throw Self.error(refusal) }
        switch event {
        case .agreed: logger.info("consent: a guest agreed")
        case .declined: logger.info("consent: a guest said no; nothing was recorded")
        default: break
        }
    }

    /// The guest's choice of effect on the start screen (one `KioskSettings.offeredEffect` let
    /// through): every shot gets it (the button's too) until the next choice; nil: the default.
    func choose(_ effect: ClipEffect?) {
        chosen.withLock { $0 = effect }
    }

    /// The effect a shot started now gets.
    package var effect: ClipEffect { chosen.withLock { $0 } ?? settings.defaultEffect }

    // MARK: - The booth's button

    /// One press of the booth's button: the camera stops a shot under way, else starts one under
    /// a yes the flow allows (never another guest's); a press that starts nothing is the page's.
    func press() async {
        for case .press(let consent, let mayStart) in handle(.buttonPressed) {
            let request = mayStart ? shotRequest(seconds: nil, consent: consent, effect: effect) : nil
            do {
                switch try await manager.press(request, countdown: settings.countdown) {
                case .started:
                    handle(.shotStarted(under: consent))
                    logger.info("button: shot started")
                case .stopped: logger.info("button: shot stopped")
                case .ignored: logger.info("button: pressed while a shot is being saved; nothing to do")
                case .notStarted:
                    handle(.pressStartedNothing)
                    logger.info(outOfService == nil ? "button: pressed; the guest page asks for consent first"
                                                    : "button: pressed while the booth is out of service; nothing to do")
                }
            } catch {
                await releasePromptUnlessRecording()
                logger.warning("button: \(error.text())")
            }
        }
    }

    // MARK: - The camera

    /// What the camera did, as the flow and the question on screen need it.
    func cameraEvent(_ event: CameraManager.Event) {
        switch event {
        case .state(let state):
            guard !state.isBusy else { return }
            // The shot is over (or never started): its question stays for the review.
            prompts?.release(after: .seconds(settings.booth.reviewSeconds))
            handle(.shotEnded)
        case .shotFinished(let result): handle(.shotKept(id: result.shot.id))
        case .shotFailed, .shotDiscarded: break
        }
    }

    // MARK: - What it says

    /// Whether post `id`'s share link may be shown on the booth's screen now: the post its
    /// current guest just made, while their thank-you is up.
    package func sharesLink(of id: String) -> Bool {
        let now = clock.now
        return flow.withLock { $0.sharesLink(of: id, at: now) }
    }

    package var consentStatus: KioskStatus.ConsentStatus? {
        let now = clock.now
        return flow.withLock { $0.consentStatus(at: now) }
    }

    /// Why the booth cannot take a guest now, as last checked; nil in service.
    package var outOfService: OutOfService? { flow.withLock { $0.outOfService } }

    package var stage: GuestFlow.Stage { flow.withLock { $0.stage } }

    // MARK: -

    private func shotRequest(seconds: Double?, consent: GivenConsent?, effect: ClipEffect) -> ShotRequest {
        var request = settings.shotRequest(seconds: seconds, effect: effect)
        request.consent = consent
        // The question on screen, held from now until the shot is over.
        request.prompt = prompts?.holdForShot()
        return request
    }

    /// A shot that did not start: its question moves on again (unless another shot is under way,
    /// which keeps its own).
    private func releasePromptUnlessRecording() async {
        if await !manager.recordState.isBusy { prompts?.release(after: .zero) }
    }

    /// The API's answer to a refusal.
    static func error(_ refusal: GuestFlow.Refusal) -> APIError {
        switch refusal {
        case .consentOff:
            APIError(.recorder(.notFound), "kiosk.consent is off: there is nothing to agree to, and shots start without it.")
        case .consentFirst:
            APIError(.recorder(.denied), "kiosk.consent is on and no guest has agreed to it: a shot starts only after a yes on the guest page (POST /api/consent {\"answer\": \"yes\", \"textSha256\": ...}). Nothing was recorded.",
                     guestKey: .consentFirst)
        case .consentChanged(let shown, let kiosk):
            APIError(.consentChanged, "the consent text the page showed (SHA-256 \(shown.prefix(64))) is not the kiosk's (\(kiosk)): kiosk.consent changed since the page was loaded. The page reloads itself; nothing was recorded.")
        case .outOfService(let why):
            APIError(.outOfService, "the booth is out of service until this clears by itself: \(why.reasons.joined(separator: "; ")). Nothing was recorded.")
        }
    }
}
