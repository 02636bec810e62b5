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
                                "/etc/recorder/recorder.conf"].first { FileManager.default.fileExists(atPath: $0) }
        self.file = file
        // (a package file that is not there is no package installed: nothing to read)
        self.packageFile = packageFile
        packageLayer = FileManager.default.fileExists(atPath: packageFile) && packageFile != file ? packageFile : nil
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

    // MARK: The file

    enum Line: Equatable {
        case entry(line: Int, key: String, value: String)
        case problem(Problem)
    }

    /// The file's bytes; a missing file, a directory or an unreadable one is a problem saying which.
    static func readFile(_ path: String) throws(Problem) -> [UInt8] {
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDONLY | O_CLOEXEC) } catch {
            throw Problem("", error.code == ENOENT ? .fileMissing(path: path) : .fileUnreadable(path: path, errno: error.code))
        }
        defer { Posix.closeAfterUse(fd) }
        if (try? Posix.status(of: fd))?.isDirectory == true {
            throw Problem("", .fileIsDirectory(path: path))
        }
        do throws(Descriptors.Errno) { return try Posix.readAll(fd, limit: 1 << 20) } catch {
            throw Problem("", error.code == EFBIG ? .fileTooLarge(path: path) : .fileUnreadable(path: path, errno: error.code))
        }
    }

    /// `key = value` lines. `#` starts a comment at the start of a line or after whitespace; a
    /// value wholly in double quotes is taken as it is (the quotes removed, no escapes).
    static func parse(_ bytes: [UInt8], file: String) -> [Line] {
        var lines: [Line] = []
        for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let location = "\(file):\(number)"
            guard let text = String(validating: raw, as: UTF8.self) else {
                lines.append(.problem(Problem(location, .lineNotUTF8)))
                continue
            }
            let line = text.trimmed()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                lines.append(.problem(Problem(location, .notKeyValue(line: line))))
                continue
            }
            let key = line[..<eq].trimmed()
            let rest = line[line.index(after: eq)...].trimmed()
            var value: String
            if rest.hasPrefix("\"") {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    lines.append(.problem(Problem(location, .unclosedQuote(key: key))))
                    continue
                }
                let after = body[body.index(after: close)...].trimmed()
                guard after.isEmpty || after.hasPrefix("#") else {
                    lines.append(.problem(Problem(location, .textAfterQuote(key: key, text: after))))
                    continue
                }
                value = String(body[..<close])
            } else {
                value = rest
                // A comment: '#' after whitespace. ("a#b" keeps its '#'.)
                var previous: Character = " "
                for index in value.indices {
                    if value[index] == "#" && previous.isWhitespace {
                        value = value[..<index].trimmed()
                        break
                    }
                    previous = value[index]
                }
            }
            lines.append(.entry(line: number, key: key, value: value))
        }
        return lines
    }

    // MARK: Checking values

    /// Each set value checked against its key's rule: the problems, with where each value came from.
    package func validate() -> [Problem] {
        values.keys.sorted().compactMap { key in
            guard let rule = settings[key]?.rule, let value = values[key], !rule.accepts(value) else { return nil }
            return Problem(origin(key), issue(key, value, rule))
        }
    }

    package static func parseBoolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1", "on": true
        case "false", "no", "0", "off": false
        default: nil
        }
    }

    /// "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:80", "localhost:8080" as host and port.
    package static func parseListen(_ text: String) -> (String, Int)? {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// Where `key`'s value came from, for messages.
    package func origin(_ key: String) -> String { origins[key] ?? "the default" }

    /// A file systemd handed over with LoadCredential= (`$CREDENTIALS_DIRECTORY/name`), if there is one.
    package func credentialFile(_ name: String) -> String? {
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else { return nil }
        let path = directory + "/" + name
        return Posix.allows(path, R_OK) ? path : nil
    }

    /// The file a secret's `fileKey` names (`kiosk.token_file`, `s3.credentials_file`...): a file
    /// set above the package's layer (`packageFile`); else the credential systemd hands the service
    /// (`LoadCredential=`, whatever the source file's mode); else the package's file, the
    /// credential's source, for the commands run beside the service; nil when none is set (an
    /// empty setting undoes one beneath it).
    package func secretFile(_ fileKey: String) -> String? {
        let value = values[fileKey]
        if let value, !isPackageDefault(fileKey) { return value.isEmpty ? nil : value }
        let credential = setting(fileKey).credential
        if let credential, let handed = credentialFile(credential) { return handed }
        if let value { return value.isEmpty ? nil : value }
        // Outside the unit with no package file (installed by hand): the file the unit's
        // LoadCredential= names, so `recorder config check` judges the token the service will get
        // (it said "no API token" of a booth whose token was in place).
        guard let credential, (environment["CREDENTIALS_DIRECTORY"] ?? "").isEmpty else { return nil }
        let source = credentialSources + "/" + credential
        return (try? Posix.status(of: source)) == nil ? nil : source
    }

    /// Where recorder.service's `LoadCredential=` lines take each secret from (`/etc/recorder/NAME`).
    package static let credentialSources = "/etc/recorder"

    /// Whether `path` is in the credential directory systemd made for this service (private to it).
    package func isSystemdCredential(_ path: String) -> Bool {
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else { return false }
        return path.hasPrefix(directory + "/")
    }

    /// What is wrong with `value` for `key`, whose rule it does not meet.
    private func issue(_ key: String, _ value: String, _ rule: Setting.Rule) -> Problem.Issue {
        if key == "backend" { return .unknownBackend(value) }
        if case .token = rule, let weakness = TokenStrength.weakness(value) { return .weakToken(key: key, weakness) }
        return .badValue(key: key, value: value, rule: rule)
    }

    /// The number set for `key`, else its default; the value was checked against its key's rule
    /// when the configuration was read.
    package func number(_ key: String) throws(RecorderError) -> Double {
        let text = values[key] ?? setting(key).defaultValue ?? ""
        let rule = setting(key).rule
        guard rule.accepts(text), let value = Double(text) else {
            throw .configuration(origin(key), .badValue(key: key, value: text, rule: rule))
        }
        return value
    }

    /// The number set for `key`, or nil when it is not set (a key with no default).
    package func optionalNumber(_ key: String) throws(RecorderError) -> Double? {
        values[key] == nil ? nil : try number(key)
    }

    /// The yes/no set for `key`, or its default; anything but true/false/yes/no/on/off/1/0 is a configuration error.
    package func boolean(_ key: String) throws(RecorderError) -> Bool {
        let text = values[key] ?? setting(key).defaultValue ?? "false"
        guard let value = Self.parseBoolean(text) else {
            throw .configuration(origin(key), .badValue(key: key, value: text, rule: .boolean))
        }
        return value
    }

    /// The text set for `key`, else its default (nil when it has none, or is "auto" or empty for a device).
    package func text(_ key: String) -> String? {
        values[key] ?? setting(key).defaultValue
    }

    /// `key`'s declaration; asking for a key outside the catalogue is a programming error (a
    /// module reading a key it did not declare, or a catalogue without that module's settings).
    package func setting(_ key: String) -> Setting {
        guard let setting = settings[key] else {
            preconditionFailure("configuration key \(key) is not in this configuration's catalogue (\(settings.keys.count) keys)")
        }
        return setting
    }

    /// The value in effect for every key (secrets masked) and where it came from: "flag",
    /// an environment variable's name, "file:line", or "default"; nil value: not set, no default.
    package func effectiveValues() -> [(key: String, value: String?, origin: String)] {
        settings.keys.map { key in
            let origin = origins[key].map { $0 == "the command line" ? "flag" : $0 } ?? "default"
            return (key, effectiveValue(key).map { Self.masked(key, $0) }, origin)
        }
    }

    func effectiveValue(_ key: String) -> String? {
        // (a secret's file: the one actually read, systemd's credential under the unit)
        if setting(key).credential != nil { return secretFile(key) ?? values[key] }
        if let value = values[key] { return value }
        switch key {
        case "outbox": return outboxDirectory
        case "local.path": return localStoreDirectory
        case "cache.path": return videoCacheDirectory
        case "workspace": return workspaceDirectory
        case "kiosk.state_dir": return kioskStateDirectory
        case "author_id": return author.id
        case "author_name": return author.name
        default:
            return setting(key).defaultValue
        }
    }

    /// Secrets never shown: the token, anything named like a secret or password, and the password
    /// in a URL (`https://user:password@host`).
    static func masked(_ key: String, _ value: String) -> String { ConfigurationProblem.masked(key, value) }

    /// The token, anything named like a secret or password; not a file that holds one.
    static func isSecret(_ key: String) -> Bool { ConfigurationProblem.isSecret(key) }

    package static func home(_ environment: [String: String], _ xdg: String, _ fallback: String) -> String {
        if let dir = environment[xdg], dir.hasPrefix("/") { return dir }
        var home = environment["HOME"] ?? ""
        if home.isEmpty, let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { home = String(cString: dir) }
        return (home.isEmpty ? "/var/lib/recorder" : home) + "/" + fallback
    }

    // MARK: Resolved settings

    package var outboxDirectory: String {
        values["outbox"] ?? Self.home(environment, "XDG_STATE_HOME", ".local/state") + "/recorder/outbox"
    }

    /// The shot workspace: `workspace`, else `defaultWorkspace`.
    package var workspaceDirectory: String {
        values["workspace"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultWorkspace(environment: environment)
    }

    /// `$STATE_DIRECTORY/workspace` under systemd (`StateDirectory=`: on the disk, so the last
    /// shot and a recording under way survive a power cut, not only a restart), else
    /// `$XDG_RUNTIME_DIR/recorder`, or `<tmp>/recorder-<uid>` when there is no runtime directory.
    package static func defaultWorkspace(environment: [String: String]) -> String {
        if let state = environment["STATE_DIRECTORY"], state.hasPrefix("/") {
            // The first, when the unit lists several.
            return String(state.split(separator: ":").first ?? "") + "/workspace"
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/recorder" }
        let tmp = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(tmp)/recorder-\(getuid())"
    }

    /// The video cache's directory: `cache.path`, else systemd's `CacheDirectory=`, else the
    /// user's cache directory.
    package var videoCacheDirectory: String {
        if let path = values["cache.path"] { return path }
        if let systemd = environment["CACHE_DIRECTORY"], systemd.hasPrefix("/") {
            // systemd's CacheDirectory= (the first, when it lists several).
            return String(systemd.split(separator: ":").first ?? "") + "/videos"
        }
        return Self.home(environment, "XDG_CACHE_HOME", ".cache") + "/recorder/videos"
    }

    /// Who makes the posts: `author_id` and `author_name`, else this machine's host name.
    package var author: (id: String, name: String) {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (values["author_id"] ?? host, values["author_name"] ?? values["author_id"] ?? host)
    }

    package var localStoreDirectory: String {
        values["local.path"] ?? Self.home(environment, "XDG_DATA_HOME", ".local/share") + "/recorder/store"
    }
}
