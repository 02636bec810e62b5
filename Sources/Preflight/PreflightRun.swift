import Synchronization
package import SystemSupport
package import PreflightValues

/// Runs a preflight: every check at once, each within its own deadline on `clock`, so the run
/// takes as long as its slowest check and a check that hangs is reported as such (`timedOut`)
/// instead of holding up the rest.
package enum PreflightRun {
    package static func run(_ probes: [PreflightProbe], clock: some Clock<Duration>) async -> PreflightReport {
        let checks = await withTaskGroup(of: PreflightCheck.self) { group in
            for probe in probes { group.addTask { await check(probe, clock: clock) } }
            var checks: [PreflightCheck] = []
            for await check in group { checks.append(check) }
            return checks
        }
        return PreflightReport(checks)
    }

    /// One check within its deadline: its finding, or `timedOut` when the deadline came first (its
    /// stop signal is set then, and its work left to end by itself).
    static func check(_ probe: PreflightProbe, clock: some Clock<Duration>) async -> PreflightCheck {
        let start = clock.now
        let stop = StopSignal()
        let tasks = Handles()
        let finding = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PreflightFinding, Never>) in
                let answer = Answer(continuation)
                let deadline = Task {
                    // (cancelled: the work ended first)
                    guard (try? await clock.sleep(for: probe.deadline)) != nil else { return }
                    stop.set()
                    tasks.state.withLock { $0.work }?.cancel()
                    answer.give(.timedOut(seconds: probe.deadline.seconds))
                }
                let work = Task {
                    let finding = await probe.work(stop)
                    tasks.state.withLock { $0.deadline }?.cancel()
                    answer.give(finding)
                }
                tasks.state.withLock { $0 = (work, deadline, answer) }
                // (either may have ended before the other was kept: cancelling an ended task is nothing)
                if answer.isGiven {
                    work.cancel()
                    deadline.cancel()
                } else if Task.isCancelled {
                    // (cancelled before the handler had the tasks to cancel)
                    stop.set()
                    work.cancel()
                    deadline.cancel()
                    answer.give(.timedOut(seconds: 0))
                }
            }
        } onCancel: {
            // Nobody waits for the answer any more: the work is told to stop, and left.
            stop.set()
            let (work, deadline, answer) = tasks.state.withLock { $0 }
            work?.cancel()
            deadline?.cancel()
            answer?.give(.timedOut(seconds: 0))
        }
        let elapsed = start.duration(to: clock.now)
        return PreflightCheck(probe.id, finding, milliseconds: max(0, Int(elapsed.seconds * 1000)))
    }

    /// A check's two tasks and its answer, kept for the one that ends (or the cancellation) to
    /// reach the others.
    private final class Handles: Sendable {
        let state = Mutex<(work: Task<Void, Never>?, deadline: Task<Void, Never>?, answer: Answer?)>((nil, nil, nil))
    }

    /// The one answer a check gives: the first of its finding and its deadline.
    private final class Answer: Sendable {
        private let continuation: Mutex<CheckedContinuation<PreflightFinding, Never>?>

        init(_ continuation: CheckedContinuation<PreflightFinding, Never>) {
            self.continuation = Mutex(continuation)
        }

        func give(_ finding: PreflightFinding) {
            continuation.withLock { value in
                defer { value = nil }
                return value
            }?.resume(returning: finding)
        }

        var isGiven: Bool { continuation.withLock { $0 == nil } }
    }
}

extension Duration {
    /// In seconds, with the fraction.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
