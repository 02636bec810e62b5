import Synchronization
import SystemSupport
import Testing
@testable import KioskService

/// The watchdog's rhythm on a test clock: a check that fails (the self-probe slower than its
/// timeout on a loaded booth) is tried again soon, so one slow answer costs one ping and never
/// the process; a process stuck for good gets no ping at all.
@Suite(.timeLimit(.minutes(1))) struct WatchdogLoopTests {
    /// The checks' answers, in order (then `rest`), and when each ping came.
    final class Script: Sendable {
        let answers: Mutex<[Bool]>
        let rest: Bool
        let pings = Mutex<[Duration]>([])
        init(_ answers: [Bool], then rest: Bool) { self.answers = Mutex(answers); self.rest = rest }
        func next() -> Bool { answers.withLock { $0.isEmpty ? rest : $0.removeFirst() } }
    }

    /// Runs the loop for `steps` of its sleeps; the pings' times from the start.
    private func pings(_ script: Script, steps: Int, interval: Duration = .seconds(10)) async -> [Duration] {
        let clock = TestClock()
        let start = clock.now
        let loop = WatchdogLoop(interval: interval, clock: clock)
        var begun: UInt64 = 0
        let task = Task { await loop.run(check: { script.next() }, ping: { script.pings.withLock { $0.append(start.duration(to: clock.now)) } }) }
        for _ in 0..<steps {
            #expect(await clock.waitForSleep(after: begun), "the watchdog does not sleep on the clock")
            begun = clock.sleepsBegun
            if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
        }
        #expect(await clock.waitForSleep(after: begun))
        task.cancel()
        await task.value
        return script.pings.withLock { $0 }
    }

    @Test func aFailedCheckIsTriedAgainWithinTheWatchdogsTime() async {
        // WatchdogSec=20: pings every 10 s; two slow answers at 10 s and 11 s, then it answers.
        let pings = await pings(Script([true, false, false], then: true), steps: 4)
        #expect(pings == [.zero, .seconds(12), .seconds(22)], "\(pings)")
        // No two pings further apart than WatchdogSec (before: 0 s then 30 s, and systemd killed it).
        #expect(zip(pings, pings.dropFirst()).allSatisfy { $1 - $0 < .seconds(20) })
    }

    @Test func aProcessThatNeverAnswersIsNeverPinged() async {
        let pings = await pings(Script([true], then: false), steps: 30)
        #expect(pings == [.zero], "\(pings)")
    }
}
