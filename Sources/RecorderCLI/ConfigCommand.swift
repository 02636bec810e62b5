import ArgumentParser
import FoundationEssentials
import RecorderCore

/// `recorder config`: check the configuration, or show what is in effect.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration, or show every value in effect and where it came from.",
        subcommands: [Check.self, Show.self])

    /// `recorder config check`: every problem, one `file:line: problem` line each.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the configuration file, the RECORDER_* environment and --set: 'ok' (exit 0), or each problem as file:line: problem (exit 78).")

        @OptionGroup var store: StoreOptions

        func run() throws {
            let configuration = RecorderConfiguration(collecting: try store.flags(), configFile: store.config)
            if configuration.problems.isEmpty {
                print("ok")
                return
            }
            for problem in configuration.problems { printError(problem.description) }
            throw ExitCode(SysExit.config.rawValue)
        }
    }

    /// `recorder config show`: each key's value in effect (secrets masked) and its origin.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every configuration value in effect and where it came from: flag, environment variable, file:line or default. Secrets are masked.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        struct Entry: Encodable {
            var value: String?
            var origin: String
        }

        func run() throws {
            let configuration = try store.configuration()
            let entries = configuration.effectiveValues()
            if output.json {
                printJSON(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, Entry(value: $0.value, origin: $0.origin)) }))
                return
            }
            if let file = configuration.file { print("# file: \(file)") } else { print("# no configuration file") }
            for entry in entries {
                print("\(entry.key) = \(entry.value ?? "(not set)")  # \(entry.origin)")
            }
        }
    }
}
