import ArgumentParser
import FoundationEssentials
import KioskService
import Settings
import KioskState
import Failures

/// `recorder config`: check the configuration, or show what is in effect.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration, or show every value in effect and where it came from.",
        subcommands: [Check.self, Show.self, Keys.self])

    /// `recorder config check`: every problem, one `file:line: problem` line each.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the configuration file, the RECORDER_* environment and --set: 'ok' (exit 0), or each problem as file:line: problem (exit 78).")

        @OptionGroup var store: StoreOptions

        func run() throws {
            let configuration = RecorderConfiguration(collecting: try store.flags(), configFile: store.config, settings: .withKiosk)
            if configuration.problems.isEmpty {
                print("ok")
                return
            }
            for problem in configuration.problems { printError(CLIWords.text(RecorderError(problem))) }
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

    /// `recorder config keys`: every key, what its value must look like, its default and what it does.
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every configuration key: its values, its default, its environment variable and what it does.",
            discussion: "Keys:\n\n" + SettingsCatalogue.withKiosk.settings.map { setting in
                "\(setting.key) (\(setting.rule.valueDescription); default: \(Keys.defaultText(setting))): \(SettingFlags.summary(setting))."
            }.joined(separator: "\n\n"))

        @OptionGroup var output: OutputOptions

        @Flag(name: .long, help: "Print docs/configuration.md (scripts/make-docs.sh writes it from this).")
        var markdown = false

        struct Entry: Encodable {
            var key: String
            var values: String
            var defaultValue: String?
            var defaultNote: String?
            var environment: String
            var credential: String?
            var secret: Bool
            var summary: String
        }

        func run() {
            let settings = SettingsCatalogue.withKiosk.settings
            if output.json {
                printJSON(settings.map {
                    Entry(key: $0.key, values: $0.rule.valueDescription, defaultValue: $0.defaultValue, defaultNote: $0.defaultNote,
                          environment: $0.environmentName, credential: $0.credential, secret: $0.isSecret, summary: SettingFlags.summary($0))
                })
            } else if markdown {
                print(Self.markdown(settings), terminator: "")
            } else {
                for setting in settings {
                    print("\(setting.key) = \(setting.defaultValue.map { $0.isEmpty ? "\"\"" : $0 } ?? "")  # \(setting.rule.valueDescription)")
                    print("    \(SettingFlags.summary(setting)).\(setting.defaultNote.map { " Default: \($0)." } ?? "")")
                }
            }
        }

        /// A key's default in words: its value, what it depends on, or none.
        static func defaultText(_ setting: Setting) -> String {
            if let value = setting.defaultValue { return value.isEmpty ? "empty" : value }
            if let note = setting.defaultNote { return note }
            if let credential = setting.credential { return "systemd's credential \(credential), if any (the package's file, /etc/recorder/\(credential), for the commands)" }
            return "none"
        }

        /// docs/configuration.md: a table per section (the key's first part).
        static func markdown(_ settings: [Setting]) -> String {
            func cell(_ text: String) -> String {
                text.replacing("|", with: "\\|").replacing("\n", with: " ")
            }
            var text = """
                # Configuration

                <!-- Generated by `recorder config keys --markdown` (bash scripts/make-docs.sh): edit the settings in
                     Sources/Settings/Setting+Core.swift and Sources/KioskState/Setting+Kiosk.swift, not this file. -->

                Every command reads the same settings, highest first: command-line flags (and `--set key=value`), the
                environment (`RECORDER_` and the key in capitals, dots as underscores: `s3.bucket` is
                `RECORDER_S3_BUCKET`), then the configuration file (`--config`, else `$RECORDER_CONFIG`, else
                `~/.config/recorder/recorder.conf`, else `/etc/recorder/recorder.conf`), then, on a booth installed
                from the package, its own `/usr/lib/recorder/recorder.conf`: where the service keeps the booth's
                data and its secrets' files, so every command run there (by root, or by a member of the group
                recorder) uses them with no option (docs/kiosk.md, "The organiser's commands").

                The file holds one `key = value` a line. `#` starts a comment at the start of a line or after a space;
                a value in double quotes is taken as it is. An unknown key, a key set twice or a value out of range
                stops every command with status 78, naming the file and line; `recorder config check` lists every
                problem, `recorder config show` every value in effect and where it came from (secrets masked).
                Keys marked *secret* are never shown; the files that hold secrets must be their owner's alone (mode
                0600), or root's and its group's to read (0640), unless systemd hands them over with
                `LoadCredential=` under the name given (then the service reads systemd's copy).

                There are \(settings.count) keys.

                """
            // Keys without a section first ("general"), then each section in order.
            func section(_ setting: Setting) -> String {
                setting.key.contains(".") ? String(setting.key.prefix { $0 != "." }) : "general"
            }
            let sections = [[], settings.filter { !$0.key.contains(".") }] + Dictionary(grouping: settings.filter { $0.key.contains(".") }, by: section)
                .sorted { $0.key < $1.key }.map(\.value)
            for group in sections where !group.isEmpty {
                text += "\n## `\(section(group[0]))`\n\n| Key | Values | Default | What it does |\n| --- | --- | --- | --- |\n"
                for setting in group {
                    var notes: [String] = []
                    if setting.isSecret { notes.append("*secret*") }
                    if let credential = setting.credential { notes.append("systemd: `LoadCredential=\(credential):FILE`") }
                    let summary = SettingFlags.summary(setting) + "." + (notes.isEmpty ? "" : " " + notes.joined(separator: "; ") + ".")
                    let defaultCell = setting.defaultValue.map { $0.isEmpty ? "empty" : "`\($0)`" } ?? defaultText(setting)
                    text += "| `\(setting.key)` | \(cell(setting.rule.valueDescription)) | \(cell(defaultCell)) | \(cell(summary)) |\n"
                }
            }
            return text
        }
    }
}
