import FoundationEssentials
import Glibc
internal import SystemSupport
package import Failures

/// Settings for posting, uploading, shooting and the kiosk, resolved from (highest first)
/// command-line flags, the environment (`RECORDER_` + the key in capitals, dots as underscores:
/// `s3.bucket` is `RECORDER_S3_BUCKET`), the operator page's settings (`OperatorLayer`, in the
/// kiosk's state directory, when the catalogue has the kiosk's keys), the configuration file, and
/// the package's own file (`packageFile`: where the installed service keeps the booth's data and
/// its secrets). The environment is above the operator page: an admin's drop-in
/// (`Environment=RECORDER_...`) pins a value the page then shows and may not change.
///
/// The file: one `key = value` per line. `#` starts a comment at the start of a line or after
/// whitespace (`a # b` is `a`; `a#b` is `a#b`); a value in double quotes is taken as it is, `#` and
/// spaces included (`"a # b"`). Blank lines are ignored. A key set twice, a line that is not valid
/// UTF-8, an unknown key or a value out of range is an error naming the file and line (exit 78).
package struct RecorderConfiguration: Sendable {
    /// The keys this configuration accepts: their rules, defaults and docs.
    package let settings: SettingsCatalogue

    /// One thing wrong with the configuration, and where: "file:line", an environment variable's
    /// name, or "the command line" (empty when the problem is the file itself).
    package typealias Problem = ConfigurationProblem

    /// Resolved values, and where each came from ("the command line", "RECORDER_S3_BUCKET", "file:line").
    package private(set) var values: [String: String] = [:]
    package private(set) var origins: [String: String] = [:]
    /// The configuration file read, if any.
    package let file: String?
    /// The package's file read beneath it, if any (`packageFile`).
    package let packageLayer: String?
    /// The package's file this configuration was asked to read (read again with it).
    private let packageFile: String
    package let environment: [String: String]
    /// The directory the unit's credentials come from (`credentialSources`; tests move it).
    package var credentialSources = RecorderConfiguration.credentialSources
    /// Everything wrong, in file order, then the operator page's, the environment's, the command line's.
    package private(set) var problems: [Problem] = []
    /// The keys the command line set (`--set` and the commands' flags), as given.
    package let commandLine: [String: String]
    /// The operator page's settings file (in `kioskStateDirectory`), when the catalogue has one,
    /// and the layer read from it (or given); nil when there is none.
    package private(set) var layerPath: String?
    package private(set) var layer: OperatorLayer?

    /// Where the operator's layer comes from.
    package enum LayerSource: Sendable {
        /// The file in the kiosk's state directory (every command).
        case stateDirectory
        /// This layer instead of the file's (the operator page's changes, judged before they are saved).
        case given(OperatorLayer)
        /// None.
        case none
    }

    /// The Debian package's own file: where `recorder.service` keeps the booth's data (its
    /// `StateDirectory=` and `CacheDirectory=`) and the files its secrets come from, read beneath
    /// every other layer, so each command run on the booth (by root, or by a member of the group
    /// recorder) uses the service's store, outbox, workspace, cache and tokens with no option, and
    /// `recorder config show` says where each came from. Not the organiser's to edit: a key set in
    /// `/etc/recorder/recorder.conf` (or anywhere above) overrides it.
    package static let packageFile = "/usr/lib/recorder/recorder.conf"

    /// `flags` are keys set on the command line; `file` is `--config`, else `RECORDER_CONFIG`, else
    /// `$XDG_CONFIG_HOME/recorder/recorder.conf` or `/etc/recorder/recorder.conf` when they exist;
    /// `packageFile` (when it exists) lies beneath it.
    /// Every value is checked here, so a mistake fails the command at once (misconfigured), naming
    /// where it is; `recorder config check` lists them all.
    package init(flags: [String: String], configFile: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                settings: SettingsCatalogue = .core, packageFile: String = packageFile,
                layer: LayerSource = .stateDirectory) throws(RecorderError) {
        self.init(collecting: flags, configFile: configFile, environment: environment, settings: settings, packageFile: packageFile,
                  layer: layer)
        if var first = problems.first {
            first.more = problems.count - 1
            throw RecorderError(first)
        }
    }

    /// Reads everything it can and records each problem in `problems` instead of stopping at the first.
    package init(collecting flags: [String: String], configFile: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                settings: SettingsCatalogue = .core, packageFile: String = packageFile,
                layer layerSource: LayerSource = .stateDirectory) {
        self.environment = environment
        self.settings = settings
        commandLine = flags
        let explicit = configFile ?? environment["RECORDER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let file = explicit ?? [Self.home(environment, "XDG_CONFIG_HOME", ".config") + "/recorder/recorder.conf",
                                "/etc/recorder/recorder.conf"].first { FileSystem.isThere($0) }
        self.file = file
        // (a package file that is not there is no package installed: nothing to read)
        self.packageFile = packageFile
        packageLayer = FileSystem.isThere(packageFile) && packageFile != file ? packageFile : nil
        for layer in [packageLayer, file].compactMap({ $0 }) { readLayer(layer) }
        if settings.hasOperatorLayer {
            readLayer(layerSource, flags: flags)
        }
        for key in settings.keys {
            let name = Self.environmentName(key)
            if let value = environment[name], !value.isEmpty { set(key, value, origin: name) }
        }
        for (key, value) in flags.sorted(by: { $0.key < $1.key }) {
            if let unknown = unknownKey(key) {
                problems.append(Problem("the command line", unknown))
                continue
            }
            set(key, value, origin: "the command line")
        }
        problems = Self.inOrder(problems + validate(), files: [packageLayer, file].compactMap { $0 })
    }

    /// One file's `key = value` lines over what the layers beneath it set; a key set twice in it,
    /// an unknown key or a line that cannot be read is a problem at its line.
    private mutating func readLayer(_ file: String) {
        do throws(Problem) {
            let lines = try Self.parse(Self.readFile(file), file: file)
            var firstLine: [String: Int] = [:]
            for line in lines {
                switch line {
                case .problem(let problem):
                    problems.append(problem)
                case .entry(let number, let key, let value):
                    let location = "\(file):\(number)"
                    if let unknown = unknownKey(key) {
                        problems.append(Problem(location, unknown))
                    } else if let first = firstLine[key] {
                        problems.append(Problem(location, .setTwice(key: key, firstLine: first)))
                    } else {
                        firstLine[key] = number
                        set(key, value, origin: location)
                    }
                }
            }
        } catch {
            problems.append(error)
        }
    }

    /// Whether `key`'s value is the package's own (`packageFile`), not set by anyone above it.
    package func isPackageDefault(_ key: String) -> Bool {
        guard let packageLayer, let origin = origins[key] else { return false }
        return origin.hasPrefix(packageLayer + ":")
    }

    /// The operator page's layer: its directory is the kiosk's state directory as the file, the
    /// environment and the command line name it (never the layer itself); its values go above the
    /// file's, each with the time the page saved it as its origin.
    private mutating func readLayer(_ source: LayerSource, flags: [String: String]) {
        let named = flags["kiosk.state_dir"] ?? environment[Self.environmentName("kiosk.state_dir")].flatMap { $0.isEmpty ? nil : $0 }
            ?? values["kiosk.state_dir"]
        let directory = Self.kioskStateDirectory(named, environment: environment)
        layerPath = OperatorLayer.path(in: directory)
        switch source {
        case .none: return
        case .given(let given): layer = given
        case .stateDirectory:
            do throws(Problem) { layer = try OperatorLayer.read(directory: directory) } catch { problems.append(error) }
        }
        for (key, entry) in (layer?.entries ?? [:]).sorted(by: { $0.key < $1.key }) {
            let origin = OperatorLayer.origin(changedAt: entry.changedAt)
            if let unknown = unknownKey(key) {
                problems.append(Problem(origin, unknown))
            } else if !settings.operatorMay(key) {
                problems.append(Problem(origin, .notAnOperatorKey(key: key)))
            } else {
                set(key, entry.value, origin: origin)
            }
        }
    }

    /// This configuration read again with `layer` as the operator page's (the file, the
    /// environment and the command line as they are now): what the page's changes would make.
    package func reading(layer: OperatorLayer) -> RecorderConfiguration {
        RecorderConfiguration(collecting: commandLine, configFile: file, environment: environment, settings: settings,
                              packageFile: packageFile, layer: .given(layer))
    }

    /// This configuration read again from its places as they are now (the file, the operator
    /// page's settings): what the kiosk would start with.
    package func readAgain() -> RecorderConfiguration {
        RecorderConfiguration(collecting: commandLine, configFile: file, environment: environment, settings: settings,
                              packageFile: packageFile, layer: .stateDirectory)
    }

    /// `kiosk.state_dir`: `value` when set, else `$XDG_STATE_HOME/recorder/kiosk` (the unit sets
    /// XDG_STATE_HOME to its StateDirectory's parent: /var/lib/recorder/kiosk).
    package static func kioskStateDirectory(_ value: String?, environment: [String: String]) -> String {
        value.flatMap { $0.isEmpty ? nil : $0 } ?? home(environment, "XDG_STATE_HOME", ".local/state") + "/recorder/kiosk"
    }

    /// The kiosk's state directory as this configuration names it.
    package var kioskStateDirectory: String {
        Self.kioskStateDirectory(values["kiosk.state_dir"], environment: environment)
    }

    /// The files' problems by file (the package's first) and line, then the environment's, then
    /// the command line's.
    private static func inOrder(_ problems: [Problem], files: [String]) -> [Problem] {
        func rank(_ problem: Problem) -> (Int, Int) {
            for (index, file) in files.enumerated() where problem.location.hasPrefix(file + ":") {
                return (index, Int(problem.location.dropFirst(file.count + 1)) ?? 0)
            }
            if problem.location.isEmpty { return (0, 0) }
            if OperatorLayer.isOrigin(problem.location) { return (files.count, 0) }
            return problem.location.hasPrefix("RECORDER_") ? (files.count + 1, 0) : (files.count + 2, 0)
        }
        return problems.enumerated().sorted {
            let (a, b) = (rank($0.element), rank($1.element))
            return (a.0, a.1, $0.offset) < (b.0, b.1, $1.offset)
        }.map(\.element)
    }

    package static func environmentName(_ key: String) -> String {
        "RECORDER_" + key.uppercased().replacing(".", with: "_")
    }

    /// An unknown key, with the known key closest to it when one is close (a typo: at most a
    /// third of its letters wrong).
    private func unknownKey(_ key: String) -> Problem.Issue? {
        guard settings[key] == nil else { return nil }
        return .unknownKey(key: key, suggestion: EditDistance.closest(to: key, among: settings.keys))
    }

    private mutating func set(_ key: String, _ value: String, origin: String) {
        values[key] = value
        origins[key] = origin
    }
}
