import Foundation
import Synchronization
import Testing
@testable import KioskState
import SystemSupport

/// The restart the operator page asks for (issue 49) begins only between guests: who is at the
/// booth as the guest's flow knows it (`GuestFlow.Presence`, from events alone), and the wait that
/// looks again each second of a test clock until nobody is.
struct KioskRestartTests {
    static func at(_ seconds: Int) -> ContinuousClock.Instant { GuestFlowTests.at(seconds) }

    @Test func aGuestIsAtTheBoothFromTheirYesToTheEndOfTheirThankYou() {
        let review = 30
        // Agreed: until the yes lapses (or is used up by a post).
        var (flow, consent) = GuestFlowTests.agreed(at: 0)
        #expect(flow.presence(at: Self.at(0), reviewSeconds: review) == .agreed)
        _ = flow.handle(.shotStarted(under: consent), at: Self.at(1))
        #expect(flow.presence(at: Self.at(2), reviewSeconds: review) == .shooting)
        _ = flow.handle(.shotKept(id: "S1"), at: Self.at(10))
        // Reviewing their clip: until the page has gone back to the camera by itself, while the yes holds it is theirs too.
        #expect(flow.presence(at: Self.at(20), reviewSeconds: review) == .agreed)
        _ = flow.handle(.posted(id: "P1"), at: Self.at(25))
        #expect(flow.presence(at: Self.at(26), reviewSeconds: review) == .thanked)
        // The thank-you's link may show for GuestFlow.shareLifetime, then nobody is there.
        #expect(flow.presence(at: Self.at(25 + 179), reviewSeconds: review) == .thanked)
        #expect(flow.presence(at: Self.at(25 + 180), reviewSeconds: review) == .nobody)

        // Without consent: a review lasts kiosk.review_seconds.
        var open = GuestFlow(consent: nil)
        #expect(open.presence(at: Self.at(0), reviewSeconds: review) == .nobody)
        _ = open.handle(.shootAsked(retaking: nil), at: Self.at(0))
        _ = open.handle(.shotStarted(under: nil), at: Self.at(0))
        #expect(open.presence(at: Self.at(5), reviewSeconds: review) == .shooting)
        _ = open.handle(.shotKept(id: "S2"), at: Self.at(8))
        #expect(open.presence(at: Self.at(8 + 29), reviewSeconds: review) == .reviewing)
        #expect(open.presence(at: Self.at(8 + 30), reviewSeconds: review) == .nobody)
        // A shot that kept nothing: nobody reviews.
        _ = open.handle(.shootAsked(retaking: nil), at: Self.at(50))
        _ = open.handle(.shotStarted(under: nil), at: Self.at(50))
        _ = open.handle(.shotEnded, at: Self.at(52))
        #expect(open.presence(at: Self.at(52), reviewSeconds: review) == .nobody)
    }

    @Test func theRestartWaitsUntilNobodyIsAtTheBooth() async throws {
        let clock = TestClock()
        let restart = KioskRestart()
        let presence = Mutex(GuestFlow.Presence.reviewing)
        let waiting = Task { await restart.waitForItsMoment(presence: { presence.withLock { $0 } }, clock: clock) }
        #expect(restart.status == .init(requested: false, waitingFor: nil, stopping: false))
        restart.request()
        // A guest watches their clip: each look finds them, for as long as they stay.
        for _ in 0..<3 {
            #expect(await clock.waitForSleepers(1))
            #expect(restart.status == .init(requested: true, waitingFor: "reviewing", stopping: false))
            clock.advance(by: .seconds(1))
        }
        // (asleep again before the guest leaves: the next look finds nobody)
        #expect(await clock.waitForSleepers(1))
        presence.withLock { $0 = .nobody }
        clock.advance(by: .seconds(1))
        #expect(await waiting.value)
        #expect(restart.status == .init(requested: true, waitingFor: nil, stopping: true) && restart.isStopping)
    }

    @Test func noRestartWithoutARequestAndNoneOnceCancelled() async throws {
        let restart = KioskRestart()
        let waiting = Task { await restart.waitForItsMoment(presence: { .nobody }, clock: TestClock()) }
        waiting.cancel()
        #expect(await waiting.value == false && !restart.isStopping)
    }
}
