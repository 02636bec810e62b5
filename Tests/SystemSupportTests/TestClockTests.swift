import FoundationEssentials
import Synchronization
import SystemSupport
import Testing

/// `TestClock`: time moves only when the test moves it, a sleeper wakes at its deadline and not
/// before, cancellation ends a sleep, and the date moves with the instants. Every wait here for
/// the real time to pass has a generous limit; none of them is what ends a test that passes.
@Suite(.timeLimit(.minutes(1))) struct TestClockTests {
    /// What a sleeping task has seen: its wake, or its cancellation.
    final class Outcome: Sendable {
        let value = Mutex<String?>(nil)
        func set(_ text: String) { value.withLock { $0 = text } }
        var text: String? { value.withLock { $0 } }
    }

    @Test func aSleeperWakesOnlyWhenTheClockReachesItsDeadline() async throws {
        let clock = TestClock()
        let start = clock.now
        let outcome = Outcome()
        let sleeper = Task {
            do { try await clock.sleep(for: .seconds(10)); outcome.set("woke") } catch { outcome.set("cancelled") }
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1 && outcome.text == nil, "woke a second early")
        #expect(clock.now == start + .seconds(9))
        clock.advance(by: .seconds(1))
        await sleeper.value
        #expect(outcome.text == "woke")
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellationEndsASleepWithCancellationError() async throws {
        let clock = TestClock()
        let outcome = Outcome()
        let sleeper = Task {
            do { try await clock.sleep(for: .seconds(3600)); outcome.set("woke") } catch is CancellationError { outcome.set("cancelled") } catch { outcome.set("other") }
        }
        #expect(await clock.waitForSleepers(1))
        sleeper.cancel()
        await sleeper.value
        #expect(outcome.text == "cancelled")
        #expect(clock.sleeperCount == 0)
        // A cancelled task does not sleep at all.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do { try await clock.sleep(for: .seconds(1)); return "woke" } catch { return "cancelled" }
        }
        #expect(await early.value == "cancelled")
    }

    @Test func aDeadlineAlreadyPassedDoesNotSleepAndTheDateMovesWithTheClock() async throws {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = TestClock(at: date)
        #expect(clock.date == date)
        try await clock.sleep(until: clock.now)
        clock.advance(by: .seconds(90) + .milliseconds(500))
        #expect(clock.date == date.addingTimeInterval(90.5))
        // Standing still: the machine's time passing moves nothing.
        let before = clock.now
        try await Task.sleep(for: .milliseconds(20))
        #expect(clock.now == before)
    }

    @Test func aLoopIsSeenToGoRoundOncePerMove() async throws {
        let clock = TestClock()
        let rounds = Mutex(0)
        let loop = Task {
            while !Task.isCancelled {
                do { try await clock.sleep(for: .seconds(1)) } catch { return }
                rounds.withLock { $0 += 1 }
            }
        }
        #expect(await clock.waitForSleepers(1))
        for round in 1...3 {
            let begun = clock.sleepsBegun
            clock.advance(by: .seconds(1))
            #expect(await clock.waitForSleep(after: begun))
            #expect(rounds.withLock { $0 } == round)
        }
        // A move of ten seconds is one round, as for a program suspended that long.
        let begun = clock.sleepsBegun
        clock.advance(by: .seconds(10))
        #expect(await clock.waitForSleep(after: begun))
        #expect(rounds.withLock { $0 } == 4)
        loop.cancel()
        await loop.value
    }

    @Test func aThreadWaitingOnItsOwnIsToldOfEachMove() {
        let clock = TestClock()
        let told = Mutex(0)
        clock.whenAdvanced { told.withLock { $0 += 1 } }
        clock.advance(by: .seconds(5))
        clock.advance(to: clock.now - .seconds(1))
        clock.advance(to: clock.now + .seconds(1))
        #expect(told.withLock { $0 } == 2, "a move backwards is no move")
    }

    @Test func aChangeSignalsTimeLimitCountsByTheClockHandedIn() async {
        let clock = TestClock()
        let signal = ChangeSignal()
        let outcome = Outcome()
        let waiter = Task {
            await signal.wait(after: signal.generation, timeout: .seconds(30), clock: clock)
            outcome.set("done")
        }
        #expect(await clock.waitForSleepers(1))
        try? await Task.sleep(for: .milliseconds(50))
        #expect(outcome.text == nil, "the limit is the test clock's 30 s, not the machine's")
        clock.advance(by: .seconds(30))
        await waiter.value
        #expect(outcome.text == "done")
    }

    @Test func theSystemClockIsTheRealOne() async throws {
        let clock: any RecorderClock = .system
        let before = ContinuousClock.now
        try await clock.sleep(for: .milliseconds(10))
        #expect(ContinuousClock.now - before >= .milliseconds(10))
        #expect(abs(clock.date.timeIntervalSinceNow) < 5)
    }
}
