package import FoundationEssentials
import Glibc
package import SystemSupport
package import Failures

/// The operator's own settings: what the operator page saved, one JSON file in the kiosk's state
/// directory (`kiosk.state_dir`), beside the files it names (the questions, the consent text, the
/// branding frame). Every command reads it as the configuration's layer above the configuration
/// file and below the environment and the command line, so an admin's `RECORDER_*` or `--set`
/// still wins, and the page never writes under /etc.
package struct OperatorLayer: Sendable, Equatable {
    package static let fileName = "operator-settings.json"
    /// The largest file read: a few dozen keys, far below.
    static let sizeLimit = 1 << 20

    /// One key's value and when the page saved it (RFC 3339, UTC).
    package struct Entry: Sendable, Equatable, Codable {
        package var value: String
        package var changedAt: String

        package init(value: String, changedAt: String) {
            self.value = value
            self.changedAt = changedAt
        }
    }

    package var entries: [String: Entry]

    package init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The file in `directory`.
    package static func path(in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    }

    /// What the file holds: a note for whoever opens it, and the settings.
    private struct File: Codable {
        var note: String?
        var settings: [String: Entry]
    }

    /// The layer in `directory`; nil when there is none (no file, no directory). A file that cannot
    /// be read, or is not this layer, is a problem naming it.
    package static func read(directory: String) throws(ConfigurationProblem) -> OperatorLayer? {
        let path = path(in: directory)
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDONLY | O_CLOEXEC) } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return nil }
            throw ConfigurationProblem("", .operatorSettingsUnreadable(path: path, errno: error.code))
        }
        defer { Posix.closeAfterUse(fd) }
        let bytes: [UInt8]
        do throws(Descriptors.Errno) { bytes = try Posix.readAll(fd, limit: sizeLimit) } catch {
            throw ConfigurationProblem("", error.code == EFBIG ? .operatorSettingsDamaged(path: path)
                                                                 : .operatorSettingsUnreadable(path: path, errno: error.code))
        }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)) else {
            throw ConfigurationProblem("", .operatorSettingsDamaged(path: path))
        }
        return OperatorLayer(entries: file.settings)
    }

    /// The file's bytes: sorted, indented, a note on top for an admin who opens it.
    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let note = "Saved by recorder's operator page (/admin). Read by every recorder command above the configuration file and below RECORDER_* and --set; recorder config show names each value's origin."
        // (a dictionary of strings always encodes)
        return Array((try? encoder.encode(File(note: note, settings: entries))) ?? Data()) + [UInt8(ascii: "\n")]
    }

    /// Writes the layer into `directory` durably (a temporary name, fsync, rename, fsync of the
    /// directory): a power cut leaves the old layer or the new one whole, never a mix.
    package func write(directory: String) throws(FileSystem.Failure) {
        try FileSystem.createDirectories(directory, mode: 0o700)
        try FileSystem.writeDurably(encoded(), to: Self.path(in: directory))
    }

    /// Where a value of the layer comes from, as `recorder config show` and the page say it:
    /// "operator page, 2026-11-29 14:02", in this machine's time zone.
    package static func origin(changedAt: String) -> String {
        guard let date = RFC3339.date(changedAt) else { return "operator page" }
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return originPrefix + changedAt }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return originPrefix + String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// How every origin of the layer begins.
    package static let originPrefix = "operator page, "

    /// Whether `origin` (a value's, as the configuration records it) is the operator page's.
    package static func isOrigin(_ origin: String) -> Bool {
        origin.hasPrefix(originPrefix) || origin == "operator page"
    }
}
