import ArgumentParser
import Synchronization
import FoundationEssentials
import Settings
import Shooting
import SystemSupport
import Failures

/// Where shots live.
struct WorkspaceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Shot workspace directory (workspace, default $XDG_RUNTIME_DIR/recorder; under systemd $STATE_DIRECTORY/workspace).", valueName: "dir"))
    var workspace: String?

    /// `--workspace`, else the configured `workspace` (so the CLI finds the kiosk's shots), else the default.
    func shotWorkspace(_ configuration: RecorderConfiguration) -> ShotWorkspace {
        ShotWorkspace(root: workspace ?? configuration.workspaceDirectory)
    }
}

/// Machine-readable output.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON on standard output.")
    var json = false
}

/// Prints a failure and gives its sysexits status (used once, by `RecorderCommand.runFromCommandLine`).
func fail(_ error: RecorderError) -> ExitCode {
    // The one place the CLI spells a failure's advice, as flags.
    let text = CLIWords.text(error)
    Descriptors.printError("recorder: error: \(text)\n")
    if jsonRequested && !jsonAnswered.load(ordering: .relaxed) {
        let location = error.failure(as: ConfigurationProblem.self).map(\.location).flatMap { $0.isEmpty ? nil : $0 }
        printJSON(JSONFailure(error: text, exitStatus: Int(error.exitStatus.rawValue), kind: error.kind.rawValue, failure: error.qualifiedCaseName,
                              location: location, data: error.caseData))
    }
    return ExitCode(error.exitStatus.rawValue)
}

/// Whether the command line asked for `--json`: a failure is then also a JSON object on standard
/// output, so a script that reads JSON gets an answer either way.
var jsonRequested: Bool { CommandLine.arguments.dropFirst().contains("--json") }

/// A failure as `--json` reports it: `{"error": "...", "exitStatus": N, "kind": "notFound",
/// "failure": "PostFailure.noFinishedShot"}`: the words for a person, the kind and the case for
/// a script (which should judge those, not the words).
struct JSONFailure: Encodable {
    var error: String
    var exitStatus: Int
    /// The failure's kind (`RecorderError.Kind`), when recorder's own failure.
    var kind: String? = nil
    /// Its case, as `Type.case` (`storage`, `capture`... for the device and store modules' errors).
    var failure: String? = nil
    /// For a configuration problem, where the value came from: `file:line`, an environment
    /// variable, `the command line`.
    var location: String? = nil
    /// The case's data by label (`{"id": "K7Q2", "whereItIs": {"case": "uploaded", ...}}`): what
    /// the words tell a person, for a script.
    var data: CaseData? = nil
}

func printError(_ line: String) {
    Descriptors.printError(line + "\n")
}

/// Names each recovered recording kept beside the current shot and not posted yet, and how to post
/// it; `only`: just these; `except`: not these (named already).
func remindOfKeptShots(in workspace: ShotWorkspace, only: [String]? = nil, except: [String] = []) {
    for kept in workspace.keptShots() where only?.contains(kept.id) ?? true && !except.contains(kept.id) {
        printError("recorder: note: a recovered recording (\(kept.id)) is kept beside the current shot, not posted yet: recorder post --shot \(kept.id)")
    }
}

/// Set once a document that itself reports the failure went to standard output (a post that
/// stayed queued says so, with its error): the failure gets no second document then. Receipts
/// and other partial results do not count: a failure after them still gets its own.
let jsonAnswered = Atomic<Bool>(false)

/// Prints a value as one line of JSON (sorted keys) on standard output, like every --json result;
/// `answersFailure`: the document says how the command failed, if it does.
func printJSON<T: Encodable>(_ value: T, answersFailure: Bool = false) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Dates as the documents on disk write them (shot.json's createdAt), not seconds since 2001.
    encoder.dateEncodingStrategy = .custom(RFC3339.encode)
    // A report's failures (skipped, failed) in the CLI's words.
    encoder.userInfo[RecorderError.wordsKey] = RecorderError.Words { CLIWords.message($0) }
    do {
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
        if answersFailure { jsonAnswered.store(true, ordering: .relaxed) }
    } catch {
        // A bug (a value JSON cannot hold): said, not swallowed; a failure's own document is then
        // still printed by `fail`.
        printError("recorder: internal error: the --json answer cannot be written: \(error)")
    }
}
