import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import NIOCore
import Settings
import SystemSupport
import Fleet
import FleetPage
import FleetValues
import KioskService
import KioskWords
import KioskState
import Failures

/// `recorder fleet`: every booth that writes its heartbeat into the store, as a table (or
/// `--json`), or as Prometheus metrics for a server that cannot reach the booths (`--prometheus`).
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "List every booth writing its heartbeat into the store: online or offline, and what is wrong with each.",
        discussion: """
        Each kiosk writes its heartbeat into the store every fleet.heartbeat_seconds (fleet/<kiosk.id>.json): its \
        state, camera, microphone, button, disk, outbox, mail, clock and last problem. This reads them all, newest \
        first; a booth whose heartbeat is over 3 of its intervals old is offline. Exit 0 when every booth is online \
        and well, 1 when one is offline or has a problem (or none was found), so cron or a monitor can run it; 69 \
        when the store cannot be read. --prometheus prints the heartbeats as Prometheus metrics (a node exporter's \
        text file), or with --listen serves them at /metrics, the store read again for each scrape: for booths \
        behind a venue's NAT that a Prometheus server cannot scrape (/usr/share/recorder/prometheus/).
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Print the booths' heartbeats as Prometheus metrics (each series labelled kiosk) instead of the table.")
    var prometheus = false

    @Option(name: .long, help: ArgumentHelp("With --prometheus: serve the metrics at http://ADDRESS:PORT/metrics until stopped.", valueName: "address:port"))
    var listen: String?

    func validate() throws {
        if listen != nil && !prometheus { throw ValidationError("--listen serves the Prometheus metrics: use it with --prometheus.") }
        if let listen, RecorderConfiguration.parseListen(listen) == nil {
            throw ValidationError("--listen takes ADDRESS:PORT, e.g. 127.0.0.1:9478 or [::1]:9478 (got '\(listen)').")
        }
        if prometheus && output.json { throw ValidationError("--prometheus and --json are two answers: choose one.") }
    }

    func run() async throws {
        let configuration = try store.configuration()
        let heartbeats = try HeartbeatStore(configuration)
        let view = FleetView(store: heartbeats, clock: .system)
        if let listen, let (host, port) = RecorderConfiguration.parseListen(listen) {
            try await serve(view, host: host, port: port)
            return
        }
        let reading = await view.reading()
        if let failure = reading.failure { throw RecorderError(failure) }
        if prometheus {
            print(HeartbeatMetrics.text(reading.reports), terminator: "")
            return
        }
        if output.json {
            printJSON(FleetRoutes.document(reading))
        } else {
            print(Self.table(reading.reports, store: heartbeats.location), terminator: "")
        }
        if reading.reports.isEmpty || reading.reports.contains(where: { !$0.isWell }) { throw ExitCode(1) }
    }

    /// The exporter, until SIGTERM or SIGINT.
    private func serve(_ view: FleetView, host: String, port: Int) async throws {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        do {
            try await FleetExporter.run(view, host: host, port: port, logger: Logger(label: "recorder-fleet"), onServerRunning: {
                printError("recorder fleet: serving the booths' heartbeats as Prometheus metrics at http://\(address)/metrics")
            })
        } catch {
            let code = (error as? IOError)?.errnoCode
            let reason = code.map { String(cString: strerror($0)) } ?? "\(error)"
            throw RecorderError(CLIFailure.exporterCannotListen(address: address, reason: reason, inUse: code == EADDRINUSE))
        }
    }

    /// A line of counts, then one line per booth (newest heartbeat first) and under it each problem
    /// and what to do.
    static func table(_ reports: [BoothReport], store: String) -> String {
        guard !reports.isEmpty else {
            return "recorder fleet: no booth has written a heartbeat into \(store) yet (a kiosk writes its first as it starts).\n"
        }
        let offline = reports.count { !$0.online }, troubled = reports.count { $0.online && !$0.problems.isEmpty }
        var text = "recorder fleet: \(DoctorCommand.plural(reports.count, "booth")) in \(store): "
        text += offline == 0 && troubled == 0 ? "all online and well\n\n" : "\(offline) offline, \(troubled) with problems\n\n"
        let columns = [("BOOTH", 18), ("NAME", 18), ("STATUS", 15), ("LAST HEARD", 12), ("OUTBOX", 8), ("DISK LEFT", 10)]
        text += DoctorCommand.trimmedEnd(columns.map { DoctorCommand.padded($0.0, $0.1) }.joined()) + "\n"
        let width = DoctorCommand.terminalWidth()
        for report in reports {
            let heartbeat = report.heartbeat
            let status = !report.online ? "OFFLINE" : report.problems.isEmpty ? (heartbeat?.state ?? "") : "TROUBLE"
            let values = [report.kiosk, heartbeat?.name ?? "", status, FleetWording.duration(report.ageSeconds) + " ago",
                          heartbeat.map { "\($0.outbox.depth)" } ?? "", heartbeat?.disk.hoursLeft.map { String(cFormat: "%.1f h", $0) } ?? ""]
            text += DoctorCommand.trimmedEnd(zip(values, columns).map { DoctorCommand.padded($0.0, $0.1.1) }.joined()) + "\n"
            for problem in report.problems {
                let words = FleetWording.words(problem)
                text += DoctorCommand.wrap("    " + words.title + ": " + words.what, width: width, indent: 6)
                text += DoctorCommand.wrap("      -> " + words.fix, width: width, indent: 9)
            }
        }
        return text
    }
}
