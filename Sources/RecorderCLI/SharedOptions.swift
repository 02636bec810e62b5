import ArgumentParser
import FoundationEssentials
import RecorderCore
import SystemSupport

/// Where shots live.
struct WorkspaceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Shot workspace directory (workspace, default $XDG_RUNTIME_DIR/recorder).", valueName: "dir"))
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
    Descriptors.printError("recorder: error: \(error.message)\n")
    return ExitCode(error.exitStatus.rawValue)
}

func printError(_ line: String) {
    Descriptors.printError(line + "\n")
}

/// Names each recovered recording kept beside the current shot and not posted yet, and how to post
/// it; `except`: ones a note has just named.
func remindOfKeptShots(in workspace: ShotWorkspace, except: [String]) {
    for kept in workspace.keptShots() where !except.contains(kept.id) {
        printError("recorder: note: a recovered recording (\(kept.id)) is kept beside the current shot, not posted yet: recorder post --shot \(kept.id)")
    }
}

/// Prints a value as one line of JSON (sorted keys) on standard output, like every --json result.
func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if let data = try? encoder.encode(value) { print(String(decoding: data, as: UTF8.self)) }
}
