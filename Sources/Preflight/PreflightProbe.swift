package import SystemSupport
package import PreflightValues

/// One check to run: which, how long it may take, and the work, which returns its finding. The
/// work is handed a `StopSignal` that is set when its time is up (or the run is cancelled): a
/// check that waits (for a frame, a sound, the store) looks at it and gives up.
package struct PreflightProbe: Sendable {
    package var id: PreflightCheck.ID
    /// After this the check is reported as stuck (`timedOut`) and the run goes on without it.
    package var deadline: Duration
    package var work: @Sendable (StopSignal) async -> PreflightFinding

    /// Work that awaits (the kiosk's camera and meter, the clock).
    package init(_ id: PreflightCheck.ID, deadline: Duration, _ work: @escaping @Sendable (StopSignal) async -> PreflightFinding) {
        self.id = id
        self.deadline = deadline
        self.work = work
    }

    /// Blocking work (a device, a file, the store, a program to ask), run on a thread of its own:
    /// one that hangs holds that thread and no other work's.
    package static func blocking(_ id: PreflightCheck.ID, deadline: Duration,
                                 _ work: @escaping @Sendable (StopSignal) -> PreflightFinding) -> PreflightProbe {
        PreflightProbe(id, deadline: deadline) { stop in
            await withCheckedContinuation { continuation in
                WorkerThread.start(name: "recorder-check") { continuation.resume(returning: work(stop)) }
            }
        }
    }

    /// A finding already known (nothing to wait for).
    package static func known(_ id: PreflightCheck.ID, _ finding: PreflightFinding) -> PreflightProbe {
        PreflightProbe(id, deadline: .seconds(1)) { _ in finding }
    }
}
