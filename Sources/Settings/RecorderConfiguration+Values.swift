import FoundationEssentials
import Glibc
internal import SystemSupport
package import Failures

/// The values checked against their keys' rules, read as numbers, booleans and text, and shown
/// with where each came from.
extension RecorderConfiguration {
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
        if home.isEmpty, let directory = Posix.userHome { home = directory }
        return (home.isEmpty ? "/var/lib/recorder" : home) + "/" + fallback
    }
}
