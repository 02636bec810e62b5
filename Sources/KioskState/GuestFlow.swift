package import FoundationEssentials
package import Shooting

/// A guest's way through the booth as one state machine: agreeing (`kiosk.consent`), the shot
/// (countdown, recording, saving), the review, the post and its thank-you with the share link, and
/// the booth out of service while it cannot take a guest. A value: `handle(_:at:)` takes what
/// happened and when, moves the state, and returns what the kiosk is to do (`Effect`). The HTTP
/// routes, the booth's button and the camera's events feed it through `GuestCoordinator`, which
/// does the effects; here there is no clock, lock or I/O, so every rule is tested by events alone.
///
/// The rules:
/// - A yes holds for one guest: their first shot, then only their own retakes (a shoot naming the
///   shot under review, recorded under this yes) until they post or delete, their review ends
///   (`done`), or `yesLifetime` passes without a shot.
/// - The booth's button never starts a shot under a yes something was recorded under: whoever
///   presses may be the next person in the queue. Without a usable yes a press that starts
///   nothing goes to the page (`buttonPresses`), which asks the new guest.
/// - The share window opens at a post, for that post alone (the booth's token reaches its link and
///   QR code, and the first phone to open it may delete it), and closes at the next guest's yes,
///   the next shot asked for, or `shareLifetime` after the post.
/// - Out of service (camera gone, disk nearly full, store failing: `OutOfService`) no shot starts
///   and the button can only stop one under way; a shot and a review under way go on. It is in
///   service again as soon as the check finds every cause cleared.
package struct GuestFlow: Sendable, Equatable {
    /// How long a yes lasts after it was given or last started a shot.
    package static let yesLifetime = Duration.seconds(300)
    /// How long after a post its guest's thank-you may still show its link: the thank-you shows
    /// the code for 30 s once the post is in the store, so a few minutes cover a slow upload and a
    /// slow phone, and never a day.
    package static let shareLifetime = Duration.seconds(180)

    package enum Stage: Sendable, Equatable {
        /// Nobody at the booth: the start screen (the consent text is the page's to show).
        case waiting
        /// A shot was started: counting down, recording, being saved.
        case shooting
        /// The guest reviews `shot`.
        case reviewing(shot: String)
        /// The guest posted `post`: the thank-you.
        case thanked(post: String)
    }

    package enum Event: Sendable, Equatable {
        /// The page's yes to the consent text whose SHA-256 it sends, at `date` (for the record).
        case agreed(textSha256: String, date: Date)
        /// The page's no.
        case declined
        /// The guest is done: their review ended without a post, or the page went back to its start.
        case done
        /// A shot asked for on the page or through the API; `retaking` is the current shot when the
        /// request names it as the one under review (its guest's Retake).
        case shootAsked(retaking: Shot?)
        /// The booth's button.
        case buttonPressed
        /// The camera started a shot under `consent` (nil: none was needed).
        case shotStarted(under: GivenConsent?)
        /// A press started nothing: no yes may start a shot now.
        case pressStartedNothing
        /// The camera kept a shot: its guest reviews it.
        case shotKept(id: String)
        /// A shot ended with nothing kept (failed, too short, called off in its countdown).
        case shotEnded
        /// The current shot was posted as `id`.
        case posted(id: String)
        /// The current shot was deleted at the booth.
        case deleted
        /// What the booth can do now: nil when in service.
        case serviceChecked(OutOfService?)
    }

    package enum Effect: Sendable, Equatable {
        /// Start a shot (asked on the page or the API) under this yes (nil: none is needed).
        case startShot(consent: GivenConsent?)
        /// Hand the button's press to the camera: it stops a shot under way, else starts one under
        /// this yes when `mayStart` (never otherwise).
        case press(consent: GivenConsent?, mayStart: Bool)
        /// Refuse what was asked.
        case refuse(Refusal)
        /// Tell the pages: a status event of this kind.
        case announce(String)
        /// Count a guest's answer to kiosk.consent (yes, no).
        case countAnswer(String)
    }

    package enum Refusal: Sendable, Equatable {
        /// kiosk.consent is off: there is nothing to answer.
        case consentOff
        /// No yes that may start this shot.
        case consentFirst
        /// The page showed another text than the kiosk's (their digests).
        case consentChanged(shown: String, kiosk: String)
        /// The booth cannot take a guest now.
        case outOfService(OutOfService)
    }

    /// A guest's yes to kiosk.consent.
    struct Yes: Sendable, Equatable {
        var given: GivenConsent
        /// A shot was started under it: from now on it starts only its guest's retakes.
        var used = false
        var lastUse: ContinuousClock.Instant
    }

    /// `kiosk.consent`'s text; nil when off (no yes is needed).
    package let consentText: ConsentText?
    package private(set) var stage = Stage.waiting {
        didSet { if stage != oldValue { stageSince = lastEvent } }
    }
    /// When the stage began (the time of the event that moved it), and the last event's time.
    private(set) var stageSince: ContinuousClock.Instant?
    private var lastEvent: ContinuousClock.Instant?
    private(set) var yes: Yes?
    /// The post whose link the booth's screen may show, and since when.
    private(set) var shareWindow: (post: String, since: ContinuousClock.Instant)?
    /// Presses of the button that started nothing (no yes), for the page to act on each.
    package private(set) var buttonPresses = 0
    /// Why the booth cannot take a guest; nil in service.
    package private(set) var outOfService: OutOfService?

    package init(consent: ConsentText?) {
        consentText = consent
    }

    package static func == (a: GuestFlow, b: GuestFlow) -> Bool {
        a.consentText == b.consentText && a.stage == b.stage && a.yes == b.yes && a.shareWindow?.post == b.shareWindow?.post
            && a.shareWindow?.since == b.shareWindow?.since && a.buttonPresses == b.buttonPresses && a.outOfService == b.outOfService
    }

    /// Takes `event`, at `now`: the state moves, and the effects say what the kiosk does.
    package mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Effect] {
        lastEvent = now
        expire(at: now)
        switch event {
        case .agreed(let digest, let date): return agree(digest, date: date, at: now)
        case .declined, .done:
            guard consentText != nil else { return [.refuse(.consentOff)] }
            yes = nil
            if event == .done, stage != .shooting { stage = .waiting }
            return event == .declined ? [.countAnswer("no"), .announce("consent")] : [.announce("consent")]
        case .shootAsked(let retaking): return shoot(retaking: retaking, at: now)
        case .buttonPressed: return press(at: now)
        case .shotStarted(let consent):
            if let consent, yes?.given == consent { yes?.used = true }
            stage = .shooting
            return []
        case .pressStartedNothing:
            // Out of service the button is ignored; else the page asks the guest (kiosk.consent).
            guard outOfService == nil, consentText != nil else { return [] }
            buttonPresses += 1
            return [.announce("consent")]
        case .shotKept(let id):
            stage = .reviewing(shot: id)
            return []
        case .shotEnded:
            if stage == .shooting { stage = .waiting }
            return []
        case .posted(let id):
            // This guest is done: the next one is asked again; their thank-you shows this post's link.
            yes = nil
            shareWindow = (id, now)
            stage = .thanked(post: id)
            return []
        case .deleted:
            yes = nil
            stage = .waiting
            return []
        case .serviceChecked(let judged):
            guard judged != outOfService else { return [] }
            outOfService = judged
            return [.announce("service")]
        }
    }

    private mutating func agree(_ digest: String, date: Date, at now: ContinuousClock.Instant) -> [Effect] {
        guard let text = consentText else { return [.refuse(.consentOff)] }
        guard digest == text.sha256 else { return [.refuse(.consentChanged(shown: digest, kiosk: text.sha256))] }
        yes = Yes(given: GivenConsent(text, at: date), lastUse: now)
        // A new guest: the last one's link leaves the booth's screen.
        shareWindow = nil
        if stage != .shooting { stage = .waiting }
        return [.countAnswer("yes"), .announce("consent")]
    }

    private mutating func shoot(retaking shot: Shot?, at now: ContinuousClock.Instant) -> [Effect] {
        // Somebody starting a shot is the next guest: the last one's link leaves the booth's screen.
        shareWindow = nil
        if let outOfService { return [.refuse(.outOfService(outOfService))] }
        guard consentText != nil else { return [.startShot(consent: nil)] }
        guard var yes else { return [.refuse(.consentFirst)] }
        // Once a shot was recorded under the yes, only its guest's retake of that shot uses it.
        if yes.used {
            guard let shot, shot.consent == yes.given.consent else { return [.refuse(.consentFirst)] }
        }
        yes.lastUse = now
        self.yes = yes
        return [.startShot(consent: yes.given)]
    }

    private mutating func press(at now: ContinuousClock.Instant) -> [Effect] {
        // Out of service, or while a shot is under way, a press can only stop one.
        if outOfService != nil || stage == .shooting { return [.press(consent: nil, mayStart: false)] }
        guard consentText != nil else {
            shareWindow = nil
            return [.press(consent: nil, mayStart: true)]
        }
        // Never a yes something was recorded under: whoever presses may be the next person.
        guard var yes, !yes.used else { return [.press(consent: nil, mayStart: false)] }
        shareWindow = nil
        yes.lastUse = now
        self.yes = yes
        return [.press(consent: yes.given, mayStart: true)]
    }

    /// A yes unused for `yesLifetime` ends; a share window `shareLifetime` after its post closes.
    private mutating func expire(at now: ContinuousClock.Instant) {
        if let yes, now - yes.lastUse >= Self.yesLifetime { self.yes = nil }
        if let window = shareWindow, now - window.since >= Self.shareLifetime { shareWindow = nil }
    }

    // MARK: - What it says

    /// Whether post `id`'s link may be shown on the booth's screen at `now`.
    package func sharesLink(of id: String, at now: ContinuousClock.Instant) -> Bool {
        guard let window = shareWindow, window.post == id else { return false }
        return now - window.since < Self.shareLifetime
    }

    /// Who is at the booth at `now`, as far as the flow knows: nobody once a guest's yes has
    /// lapsed, their review has returned to the live camera by itself (`reviewSeconds`), and their
    /// thank-you's link may no longer be shown. A restart waits for `nobody`.
    package enum Presence: String, Sendable, Equatable {
        case nobody, agreed, shooting, reviewing, thanked
    }

    package func presence(at now: ContinuousClock.Instant, reviewSeconds: Int) -> Presence {
        if stage == .shooting { return .shooting }
        if let yes, now - yes.lastUse < Self.yesLifetime { return .agreed }
        switch stage {
        case .waiting, .shooting: return .nobody
        case .reviewing: return stageSince.map { now - $0 < .seconds(reviewSeconds) } ?? false ? .reviewing : .nobody
        case .thanked(let post): return sharesLink(of: post, at: now) ? .thanked : .nobody
        }
    }

    /// kiosk.consent as the status shows it at `now`; nil when off.
    package func consentStatus(at now: ContinuousClock.Instant) -> KioskStatus.ConsentStatus? {
        guard let text = consentText else { return nil }
        let holds = yes.map { now - $0.lastUse < Self.yesLifetime } ?? false
        return KioskStatus.ConsentStatus(textSha256: text.sha256, language: text.language, given: holds,
                                         retakesOnly: holds && yes?.used == true, buttonPresses: buttonPresses)
    }
}
