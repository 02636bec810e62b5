import FoundationEssentials
package import Logging
import Synchronization
import Settings
import SystemSupport

/// The kiosk's last warnings and errors, in full, for the operator page: what the journal says,
/// without a shell on the box. Fed by a log handler beside the journal's.
package final class ProblemLog: Sendable {
    package struct Problem: Codable, Sendable, Equatable {
        /// RFC 3339, UTC.
        package var at: String
        /// warning, error or critical.
        package var level: String
        package var message: String
    }

    /// How many are kept: the newest.
    static let capacity = 50
    private let problems = Mutex<[Problem]>([])

    package init() {}

    /// The kept problems, newest first.
    package var newestFirst: [Problem] { problems.withLock { $0.reversed() } }

    func record(_ level: Logger.Level, _ message: String) {
        let problem = Problem(at: RFC3339.string(.now), level: level.rawValue, message: message)
        problems.withLock { list in
            list.append(problem)
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
    }

    /// A handler that keeps warnings and worse here (added beside the kiosk's own).
    package var handler: some LogHandler { Handler(log: self) }

    private struct Handler: LogHandler {
        let log: ProblemLog
        var logLevel: Logger.Level = .warning
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.level >= .warning else { return }
            log.record(event.level, "\(event.message)")
        }
    }
}
