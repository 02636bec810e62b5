import FoundationEssentials
package import Logging
import Synchronization
import SystemSupport

/// swift-log lines for the journal: one line per message on stderr, prefixed with its syslog
/// priority (`<3>` error ... `<7>` debug), which journald turns into the entry's level. No
/// timestamps: the journal adds its own. On a terminal (no `JOURNAL_STREAM`, which systemd sets
/// when stderr goes to the journal) the prefix is left out and warnings and errors say so in words.
package struct JournalLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    private let label: String
    private let toJournal: Bool
    private static let lock = Mutex(())

    package init(label: String, toJournal: Bool = !(ProcessInfo.processInfo.environment["JOURNAL_STREAM"] ?? "").isEmpty) {
        self.label = label
        self.toJournal = toJournal
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let priority: Int
        switch event.level {
        case .trace, .debug: priority = 7
        case .info: priority = 6
        case .notice: priority = 5
        case .warning: priority = 4
        case .error: priority = 3
        case .critical: priority = 2
        }
        var text = "\(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty {
            text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        // One entry per line: a message with a newline would otherwise become two entries.
        text = text.replacing("\n", with: " ")
        let line: String
        if toJournal {
            line = "<\(priority)>\(label): \(text)\n"
        } else {
            let word = priority <= 3 ? "error: " : priority == 4 ? "warning: " : ""
            line = "\(label): \(word)\(text)\n"
        }
        Self.lock.withLock { _ in Descriptors.printError(line) }
    }
}
