import ArgumentParser
import FoundationEssentials
import KioskService
import Settings
import SystemSupport
import KioskState
import Failures

/// The configuration file, and `--set` for any key: every command reads the same configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package's /usr/lib/recorder/recorder.conf beneath it).", valueName: "file"))
    var config: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).", valueName: "key=value"))
    var settings: [String] = []

    func validate() throws {
        for setting in settings where !setting.contains("=") {
            throw ValidationError("--set needs key=value (got '\(setting)').")
        }
    }

    /// The keys `--set` gives.
    func flags() -> [String: String] {
        var flags: [String: String] = [:]
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            flags[parts[0].trimmed()] = parts.count > 1 ? String(parts[1]) : ""
        }
        return flags
    }

    /// `--set` over environment over file; every value checked.
    func configuration() throws(RecorderError) -> RecorderConfiguration {
        try RecorderConfiguration(flags: flags(), configFile: config, settings: .withKiosk)
    }
}

/// Where posts go: the configuration file, and flags that override it (and the environment).
struct StoreOptions: ParsableArguments {
    @OptionGroup var configOptions: ConfigOptions

    var config: String? { configOptions.config }

    @Option(name: .long, help: "Store: local (default) or s3.")
    var backend: String?

    @Option(name: .customLong("store-dir"), help: ArgumentHelp("Directory of the local store.", valueName: "dir"))
    var storeDirectory: String?

    @Flag(name: .long, help: "Create the local store's directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.")
    var create = false

    @Option(name: .long, help: ArgumentHelp("S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.", valueName: "url"))
    var endpoint: String?

    @Option(name: .long, help: "S3 bucket.")
    var bucket: String?

    @Option(name: .long, help: "S3 region (for signing).")
    var region: String?

    @Option(name: .long, help: "Key prefix in the store, e.g. booth-1/.")
    var prefix: String?

    @Option(name: .long, help: ArgumentHelp("Outbox directory.", valueName: "dir"))
    var outbox: String?

    /// Flags over environment over file.
    func configuration() throws(RecorderError) -> RecorderConfiguration {
        try RecorderConfiguration(flags: try flags(), configFile: config, settings: .withKiosk)
    }

    /// The configuration keys these flags set.
    func flags() throws(RecorderError) -> [String: String] {
        var flags = configOptions.flags()
        let named: [(String, String?)] = [("backend", backend), ("local.path", storeDirectory), ("s3.endpoint", endpoint),
                                          ("s3.bucket", bucket), ("s3.region", region), ("s3.prefix", prefix), ("outbox", outbox)]
        for case let (key, value?) in named { flags[key] = value }
        if create { flags["local.create"] = "true" }
        return flags
    }
}

/// Refuses command-line arguments that are not valid UTF-8 (Swift would silently repair them).
func checkArgumentsAreUTF8() throws {
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) != nil else {
            throw ValidationError("argument \(index) is not valid UTF-8 text. Pass captions as UTF-8.")
        }
    }
}
