import ArgumentParser
import Foundation
import RecorderCore

/// Where shots live.
struct WorkspaceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Shot workspace directory.", valueName: "dir"))
    var workspace: String?

    var shotWorkspace: ShotWorkspace { ShotWorkspace(root: workspace ?? ShotWorkspace.defaultRoot()) }
}

/// Machine-readable output.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON on standard output.")
    var json = false
}

/// Prints a failure and gives its sysexits status (used once, by `RecorderCommand.runFromCommandLine`).
func fail(_ error: RecorderError) -> ExitCode {
    FileHandle.standardError.write(Data("recorder: error: \(error.message)\n".utf8))
    return ExitCode(error.exitStatus.rawValue)
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
