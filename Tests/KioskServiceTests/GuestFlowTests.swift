import Foundation
@testable import KioskService
@testable import Settings
@testable import Shooting
import Testing
@testable import KioskState

/// The guest's flow as a state machine, driven by events alone (no HTTP, no camera, no clock but
/// the instants handed in): what each event does to the state, and what the kiosk is told to do.
struct GuestFlowTests {
    static let text = try! ConsentText("We record your video with sound and show it at this party.", language: "en")
    static let t0 = ContinuousClock.now

    static func at(_ seconds: Int) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    /// A shot recorded under `consent`, as the camera keeps it.
    static func shot(_ id: String, under consent: GivenConsent?) -> Shot {
        Shot(id: id, videoPath: "/nonexistent/\(id)/video.mp4", createdAt: Date(), source: "test", inputFormat: "yu12", width: 320,
             height: 240, frameRate: 15, frames: 30, framesDropped: 0, durationSeconds: 2, byteSize: 1000, codec: "h264",
             encoder: "libx264", endedEarly: nil, notes: [], consent: consent?.consent)
    }

    /// The flow after a guest's yes, and the yes (as the shot they start carries it).
    static func agreed(at second: Int = 0) -> (GuestFlow, GivenConsent) {
        var flow = GuestFlow(consent: text)
        let effects = flow.handle(.agreed(textSha256: text.sha256, date: Date()), at: at(second))
        #expect(effects == [.countAnswer("yes"), .announce("consent")])
        let started = flow.handle(.shootAsked(retaking: nil), at: at(second)).compactMap { effect -> GivenConsent? in
            if case .startShot(let consent?) = effect { return consent }
            return nil
        }
        #expect(started.count == 1, "a yes starts the guest's first shot")
        return (flow, started[0])
    }

    @Test func withConsentOffEveryShotStartsAndTheButtonRecords() {
        var flow = GuestFlow(consent: nil)
        #expect(flow.handle(.shootAsked(retaking: nil), at: Self.at(0)) == [.startShot(consent: nil)])
        #expect(flow.handle(.buttonPressed, at: Self.at(1)) == [.press(consent: nil, mayStart: true)])
        #expect(flow.handle(.agreed(textSha256: "x", date: Date()), at: Self.at(2)) == [.refuse(.consentOff)])
        #expect(flow.handle(.done, at: Self.at(2)) == [.refuse(.consentOff)])
        #expect(flow.consentStatus(at: Self.at(2)) == nil)
    }

    @Test func noShotStartsWithoutAYesAndAYesToAnotherTextIsRefused() {
        var flow = GuestFlow(consent: Self.text)
        #expect(flow.handle(.shootAsked(retaking: nil), at: Self.at(0)) == [.refuse(.consentFirst)])
        // The button without a yes: only the end of a shot under way; a press that started
        // nothing goes to the page, which asks.
        #expect(flow.handle(.buttonPressed, at: Self.at(0)) == [.press(consent: nil, mayStart: false)])
        #expect(flow.handle(.pressStartedNothing, at: Self.at(0)) == [.announce("consent")])
        #expect(flow.buttonPresses == 1)
        let wrong = String(repeating: "0", count: 64)
        #expect(flow.handle(.agreed(textSha256: wrong, date: Date()), at: Self.at(1)) == [.refuse(.consentChanged(shown: wrong, kiosk: Self.text.sha256))])
        #expect(flow.consentStatus(at: Self.at(1))?.given == false)
    }

    @Test func aYesStartsOneShotThenOnlyItsGuestsRetakes() {
        var (flow, given) = Self.agreed()
        #expect(flow.handle(.shotStarted(under: given), at: Self.at(1)).isEmpty)
        #expect(flow.stage == .shooting)
        #expect(flow.handle(.shotEnded, at: Self.at(5)).isEmpty)
        #expect(flow.handle(.shotKept(id: "SHOT-A"), at: Self.at(5)).isEmpty)
        #expect(flow.stage == .reviewing(shot: "SHOT-A"))
        let status = flow.consentStatus(at: Self.at(6))
        #expect(status?.given == true && status?.retakesOnly == true)
        // The button never starts a shot under that yes: whoever presses may be the next person.
        #expect(flow.handle(.buttonPressed, at: Self.at(6)) == [.press(consent: nil, mayStart: false)])
        // A plain shoot neither; nor a retake naming a shot that was not recorded under this yes.
        #expect(flow.handle(.shootAsked(retaking: nil), at: Self.at(7)) == [.refuse(.consentFirst)])
        #expect(flow.handle(.shootAsked(retaking: Self.shot("OTHER", under: nil)), at: Self.at(7)) == [.refuse(.consentFirst)])
        // Only that guest's retake of the shot under review reuses their yes.
        #expect(flow.handle(.shootAsked(retaking: Self.shot("SHOT-A", under: given)), at: Self.at(8)) == [.startShot(consent: given)])
    }

    @Test func aYesEndsWhenItsReviewEndsOrItsGuestPostsOrDeletesOrItLapses() {
        for end: GuestFlow.Event in [.done, .posted(id: "POST000001"), .deleted, .declined] {
            var (flow, given) = Self.agreed()
            _ = flow.handle(.shotStarted(under: given), at: Self.at(1))
            _ = flow.handle(.shotKept(id: "SHOT-A"), at: Self.at(5))
            _ = flow.handle(end, at: Self.at(10))
            #expect(flow.consentStatus(at: Self.at(10))?.given == false, "\(end)")
            #expect(flow.handle(.shootAsked(retaking: Self.shot("SHOT-A", under: given)), at: Self.at(11)) == [.refuse(.consentFirst)], "\(end)")
        }
        // Unused for five minutes: gone, and a shot asked for then is refused.
        var (flow, _) = Self.agreed()
        #expect(flow.consentStatus(at: Self.at(299))?.given == true)
        #expect(flow.handle(.shootAsked(retaking: nil), at: Self.at(300) + GuestFlow.yesLifetime) == [.refuse(.consentFirst)])
    }

    @Test func theShareWindowOpensAtThePostAndClosesAtTheNextGuestOrAfterItsTime() {
        var flow = GuestFlow(consent: Self.text)
        _ = flow.handle(.posted(id: "POST-A"), at: Self.at(0))
        #expect(flow.stage == .thanked(post: "POST-A"))
        #expect(flow.sharesLink(of: "POST-A", at: Self.at(179)))
        #expect(!flow.sharesLink(of: "POST-B", at: Self.at(1)), "only the post just made")
        #expect(!flow.sharesLink(of: "POST-A", at: Self.at(0) + GuestFlow.shareLifetime), "after its time")
        // The next guest's yes closes it at once.
        _ = flow.handle(.posted(id: "POST-A"), at: Self.at(200))
        _ = flow.handle(.agreed(textSha256: Self.text.sha256, date: Date()), at: Self.at(201))
        #expect(!flow.sharesLink(of: "POST-A", at: Self.at(201)))
        // So does the next shot asked for (consent off), and a press that may start one.
        var open = GuestFlow(consent: nil)
        _ = open.handle(.posted(id: "POST-C"), at: Self.at(0))
        _ = open.handle(.shootAsked(retaking: nil), at: Self.at(1))
        #expect(!open.sharesLink(of: "POST-C", at: Self.at(1)))
        _ = open.handle(.posted(id: "POST-D"), at: Self.at(2))
        _ = open.handle(.buttonPressed, at: Self.at(3))
        #expect(!open.sharesLink(of: "POST-D", at: Self.at(3)))
    }

    @Test func outOfServiceNoShotStartsAndTheButtonIsIgnoredUntilItClears() {
        for cause: OutOfService.Cause in [.cameraMissing("/dev/video0 is gone"),
                                          .diskNearlyFull(path: "/var/lib/recorder", free: 1 << 20, needed: 40 << 20),
                                          .storeFailing(queued: 3, waiting: .seconds(360), lastError: "connection refused")] {
            let away = OutOfService([cause])
            var flow = GuestFlow(consent: nil)
            #expect(flow.handle(.serviceChecked(away), at: Self.at(0)) == [.announce("service")], "\(cause)")
            #expect(flow.handle(.serviceChecked(away), at: Self.at(1)).isEmpty, "told once")
            #expect(flow.handle(.shootAsked(retaking: nil), at: Self.at(2)) == [.refuse(.outOfService(away))], "\(cause)")
            // The button can only stop a shot under way; a press that started nothing is not the page's.
            #expect(flow.handle(.buttonPressed, at: Self.at(2)) == [.press(consent: nil, mayStart: false)], "\(cause)")
            #expect(flow.handle(.pressStartedNothing, at: Self.at(2)).isEmpty)
            // Back by itself once the check finds it cleared.
            #expect(flow.handle(.serviceChecked(nil), at: Self.at(3)) == [.announce("service")])
            #expect(flow.handle(.shootAsked(retaking: nil), at: Self.at(4)) == [.startShot(consent: nil)], "\(cause)")
        }
        // With kiosk.consent on, a guest's yes does not start a shot while out of service either,
        // and a press is not handed to the page to ask.
        var (flow, _) = Self.agreed()
        _ = flow.handle(.serviceChecked(OutOfService([.cameraMissing("gone")])), at: Self.at(1))
        #expect(flow.handle(.buttonPressed, at: Self.at(2)) == [.press(consent: nil, mayStart: false)])
        #expect(flow.handle(.pressStartedNothing, at: Self.at(2)).isEmpty)
        #expect(flow.buttonPresses == 0)
    }

    @Test func aShotUnderWayAndAReviewGoOnWhenTheBoothGoesOutOfService() {
        var (flow, given) = Self.agreed()
        _ = flow.handle(.shotStarted(under: given), at: Self.at(1))
        _ = flow.handle(.serviceChecked(OutOfService([.diskNearlyFull(path: "/ws", free: 1, needed: 2)])), at: Self.at(2))
        #expect(flow.stage == .shooting)
        // The guest's press stops their shot.
        #expect(flow.handle(.buttonPressed, at: Self.at(3)) == [.press(consent: nil, mayStart: false)])
        _ = flow.handle(.shotEnded, at: Self.at(4))
        _ = flow.handle(.shotKept(id: "SHOT-A"), at: Self.at(4))
        #expect(flow.stage == .reviewing(shot: "SHOT-A"))
        _ = flow.handle(.posted(id: "POST-A"), at: Self.at(10))
        #expect(flow.stage == .thanked(post: "POST-A") && flow.sharesLink(of: "POST-A", at: Self.at(11)))
    }
}
