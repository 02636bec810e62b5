package import FoundationEssentials
package import Preflight
import Synchronization
package import PreflightValues

/// The operator page's preflight: one run at a time (a second ask while one runs gets the same
/// answer), over the checks `probes` makes afresh for each run.
package final class PreflightService: Sendable {
    private let probes: @Sendable () -> [PreflightProbe]
    private let clock: any Clock<Duration>
    private let running = Mutex<Task<PreflightReport, Never>?>(nil)
    private let waiters = Atomic<Int>(0)
    private let lastRun = Mutex<(report: PreflightReport, at: Date)?>(nil)
    /// When a run ends (the heartbeat tells the fleet the last one).
    private let now: @Sendable () -> Date

    package init(clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() },
                 probes: @escaping @Sendable () -> [PreflightProbe]) {
        self.clock = clock
        self.now = now
        self.probes = probes
    }

    /// The last run's report and when it ended; nil before the first.
    package var last: (report: PreflightReport, at: Date)? { lastRun.withLock { $0 } }

    /// Runs the checks, or waits for the run under way.
    package func run() async -> PreflightReport {
        let (task, started) = running.withLock { current -> (Task<PreflightReport, Never>, Bool) in
            if let current { return (current, false) }
            let probes = self.probes, clock = self.clock
            let task = Task { await PreflightRun.run(probes(), clock: clock) }
            current = task
            return (task, true)
        }
        waiters.add(1, ordering: .relaxed)
        let report = await task.value
        waiters.subtract(1, ordering: .relaxed)
        if started {
            running.withLock { $0 = nil }
            lastRun.withLock { [now] in $0 = (report, now()) }
        }
        return report
    }

    /// How many asks wait for the run under way.
    package var waiting: Int { waiters.load(ordering: .relaxed) }
}
