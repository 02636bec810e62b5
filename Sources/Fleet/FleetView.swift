package import FoundationEssentials
package import FleetValues
import Synchronization
package import SystemSupport
package import StoreValues

/// The fleet as a page shows it while it refreshes: the store read at most every `freshness`
/// (however many pages ask), the last good reading kept when the store cannot be read, and, on a
/// kiosk, its own booth from its live state rather than from the store (so a booth whose heartbeat
/// does not reach the store says so on its own page, where the rest of the fleet sees it silent).
package final class FleetView: Sendable {
    /// What a reader is shown.
    package struct Reading: Sendable {
        package var reports: [BoothReport]
        package var readAt: Date
        /// Why the store could not be read this time; `reports` are then from `asOf`.
        package var failure: StorageError?
        package var asOf: Date?
    }

    /// A kiosk's own booth as of now: its heartbeat, how long ago one last reached the store, and
    /// since when they fail (and why, in its operator's words), if they do.
    package struct Own: Sendable {
        package var heartbeat: Heartbeat
        package var failing: (seconds: Int, words: String)?

        package init(heartbeat: Heartbeat, failing: (seconds: Int, words: String)?) {
            self.heartbeat = heartbeat
            self.failing = failing
        }
    }

    /// The store is read again after this long; in between, every page gets the same reading.
    static let freshness = Duration.seconds(5)

    private let store: HeartbeatStore
    private let own: (@Sendable () async -> Own)?
    private let clock: any RecorderClock
    private let last = Mutex<(at: ContinuousClock.Instant, found: [HeartbeatStore.Found], date: Date, failure: StorageError?, goodAt: Date?)?>(nil)
    private let work = BlockingWork(name: "recorder-fleet", threads: 1)

    package init(store: HeartbeatStore, own: (@Sendable () async -> Own)? = nil, clock: any RecorderClock) {
        self.store = store
        self.own = own
        self.clock = clock
    }

    /// The fleet now (the store as last read, when that was under `freshness` ago).
    package func reading() async -> Reading {
        let now = clock.now, date = clock.date
        var kept = last.withLock { $0 }
        if kept == nil || now - kept!.at >= Self.freshness {
            let store = self.store
            do throws(StorageError) {
                let found = try await work.run { () throws(StorageError) in try store.readAll() }
                kept = (now, found, date, nil, date)
            } catch {
                kept = (now, kept?.found ?? [], date, error, kept?.goodAt)
            }
            last.withLock { $0 = kept }
        }
        guard let kept else { return Reading(reports: [], readAt: date, failure: nil, asOf: nil) }
        var reports = FleetJudge.judge(kept.found, now: date)
        if let own {
            let mine = await own()
            reports.removeAll { $0.kiosk == mine.heartbeat.kiosk }
            var problems = mine.failing.map { [BoothProblem.heartbeatNotWritten(seconds: $0.seconds, lastError: $0.words)] } ?? []
            problems += FleetJudge.problems(mine.heartbeat)
            reports.insert(BoothReport(kiosk: mine.heartbeat.kiosk, heartbeat: mine.heartbeat, ageSeconds: 0, online: true, problems: problems),
                           at: 0)
        }
        return Reading(reports: reports, readAt: date, failure: kept.failure, asOf: kept.failure == nil ? nil : kept.goodAt)
    }
}
