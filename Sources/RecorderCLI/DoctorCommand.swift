import ArgumentParser
import FoundationEssentials
import KioskService
import Preflight
import Settings
import SystemSupport
import KioskWords
import KioskState
import PreflightValues

/// `recorder doctor`: the preflight before an event, as a table (or `--json`).
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the booth before an event: camera, microphone, button, disk, clock, store, outbox, tokens, share links, TLS, Wi-Fi and the service.",
        discussion: """
        Every check runs at once, each within its own time limit (one that hangs is reported as stuck): the camera \
        gives a picture, the microphone is listened to for 3 s (speak or clap meanwhile), the store takes a probe and \
        gives it back, and the configuration is read as recorder kiosk reads it. Exit 0 when nothing found would \
        stop the event (warnings allowed), 1 when something would; 64 for a bad option, 78 for a configuration \
        that cannot be read (recorder config check lists its problems). Run it as root to compare \
        /etc/recorder/wifi/hostapd.conf with kiosk.wifi_*. The camera and the microphone are opened for a moment: \
        while the kiosk runs, its operator page (/admin) shows the same checks without taking them.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Checks to leave out, comma-separated: \(PreflightCheck.ID.allCases.map(\.rawValue).joined(separator: ",")).",
                                            valueName: "ids"))
    var skip: [String] = []

    @Option(name: .customLong("system-dir"),
            help: ArgumentHelp("Where the package's system files are: tls/*.crt (the proxy's certificates) and wifi/hostapd.conf.", valueName: "dir"))
    var systemDirectory = "/etc/recorder"

    /// The checks `--skip` names.
    var skipped: Set<PreflightCheck.ID> {
        Set(skip.flatMap { $0.split(separator: ",") }.compactMap { PreflightCheck.ID(rawValue: $0.trimmed()) })
    }

    func validate() throws {
        for name in skip.flatMap({ $0.split(separator: ",") }).map({ $0.trimmed() }) where PreflightCheck.ID(rawValue: name) == nil {
            throw ValidationError("--skip takes check names (got '\(name)'): \(PreflightCheck.ID.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() async throws {
        let configuration = try store.configuration()
        let clock = ContinuousClock()
        let probes = KioskPreflight.standalone(configuration, paths: PreflightPaths(systemDirectory: systemDirectory), clock: clock)
        let skipped = self.skipped
        let report = await PreflightRun.run(probes.filter { !skipped.contains($0.id) }, clock: clock)
        if output.json {
            printJSON(PreflightDocument(report), answersFailure: true)
        } else {
            print(Self.table(report, file: configuration.file, width: Self.terminalWidth()), terminator: "")
        }
        if !report.ready { throw ExitCode(1) }
    }

    /// The table: a verdict line, then each check on a line of its own (errors first) with what
    /// to do under it, wrapped at `width`.
    static func table(_ report: PreflightReport, file: String?, width: Int) -> String {
        let (errors, warnings) = (report.count(.error), report.count(.warning))
        var text = report.ready
            ? "recorder doctor: ready for the event\(warnings > 0 ? " (\(plural(warnings, "warning")) to look at)" : "")\n"
            : "recorder doctor: NOT READY: \(plural(errors, "error"))\(warnings > 0 ? ", \(plural(warnings, "warning"))" : "")\n"
        text += "configuration: \(file ?? "none (the defaults)")\n\n"
        let indent = 9 + 13
        for check in report.checks {
            let words = PreflightWording.words(check)
            let label = switch check.status {
            case .error: "ERROR"
            case .warning: "WARNING"
            case .ok: "ok"
            case .skipped: "skipped"
            }
            let head = padded(label, 9) + padded(words.title, 13)
            text += wrap(head + words.what, width: width, indent: indent)
            if let fix = words.fix { text += wrap(String(repeating: " ", count: indent) + "-> " + fix, width: width, indent: indent + 3) }
        }
        text += report.ready
            ? "\nNothing found would stop the event.\n"
            : "\nFix the \(plural(errors, "error")) above, then run recorder doctor again.\n"
        return text
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// `line` broken at spaces to fit `width`, the lines after the first indented by `indent`.
    static func wrap(_ line: String, width: Int, indent: Int) -> String {
        var lines: [String] = []
        // (the line's own indentation is kept: a fix line starts under the check's words)
        let lead = line.prefix { $0 == " " }
        var current = String(lead)
        for word in line.dropFirst(lead.count).split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.count == lead.count ? current + word : current + " " + word
            if candidate.count > width, current.count > max(indent, lead.count) {
                lines.append(current)
                current = String(repeating: " ", count: indent) + word
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines.map { trimmedEnd($0) + "\n" }.joined()
    }

    /// `COLUMNS` when the shell exports it (at least 60), else 100.
    static func terminalWidth() -> Int {
        guard let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 else { return 100 }
        return max(60, columns - 1)
    }

    /// `text` padded with spaces to `width` characters (never cut).
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `line` without the spaces at its end.
    static func trimmedEnd(_ line: String) -> String {
        var text = line
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
