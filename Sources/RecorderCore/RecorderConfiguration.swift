import FoundationEssentials
import Glibc
import StorageUpload
import SystemSupport

/// Settings for posting and uploading, resolved from (highest first) command-line flags, the
/// environment (`RECORDER_` + the key in capitals, dots as underscores: `s3.bucket` is
/// `RECORDER_S3_BUCKET`), and the configuration file (`key = value` lines, `#` comments).
public struct RecorderConfiguration: Sendable {
    /// Every key the file, the environment and `--set` accept.
    public static let keys: [String: String] = [
        "backend": "local (default) or s3",
        "author_id": "who posts, stored in each post's metadata (default: the host name)",
        "author_name": "display name stored in each post's metadata (default: the host name)",
        "outbox": "directory of the durable outbox (default: $XDG_STATE_HOME/recorder/outbox)",
        "local.path": "directory of the local store (default: $XDG_DATA_HOME/recorder/store); it must exist unless local.create is true",
        "local.create": "true: make a missing local.path (default false: a missing one is an error, so an unmounted disk never fills the one under it)",
        "s3.endpoint": "https://host[:port] of the S3-compatible service",
        "s3.region": "region for signing (default us-east-1)",
        "s3.bucket": "bucket name",
        "s3.prefix": "prepended to every key, e.g. booth-1/ (default none)",
        "s3.addressing": "path (default: endpoint/bucket/key) or virtual (bucket.endpoint/key)",
        "s3.credentials_file": "file with access_key_id and secret_access_key (mode 0600), used when AWS_ACCESS_KEY_ID is not set",
        "s3.multipart_threshold_mib": "files larger than this go up in parts (default 16)",
        "s3.part_size_mib": "part size, at least 5 (default 8)",
        "s3.parallel_parts": "parts sent at once, 1-16 (default 4)",
        "network.connect_timeout_seconds": "seconds to wait for a connection (default 10)",
        "network.stall_timeout_seconds": "seconds without progress before a transfer is dropped and retried (default 30)",
        "retry.initial_seconds": "first backoff ceiling (default 1)",
        "retry.max_seconds": "largest backoff ceiling (default 60)",
        "cache.path": "directory of the video cache (default: $CACHE_DIRECTORY/videos under systemd, else $XDG_CACHE_HOME/recorder/videos)",
        "cache.max_mib": "disk space the video cache may use, in MiB (default 1024)",
        "cache.memory_mib": "memory the kiosk's video cache may use, in MiB (default 64)",
        "workspace": "shot workspace directory for `recorder kiosk` (default: $XDG_RUNTIME_DIR/recorder)",
        "kiosk.listen": "address:port the kiosk's page and API listen on (default 127.0.0.1:8080)",
        "kiosk.device": "the kiosk's camera: auto (default: the first camera, else the test pattern), a /dev path or a by-id name",
        "kiosk.seconds": "length of a kiosk shot in seconds (default 15)",
        "kiosk.countdown_seconds": "countdown before a kiosk shot starts (default 3)",
        "kiosk.token_file": "file holding the API token (needed when listening beyond loopback; systemd: LoadCredential=kiosk-token)",
        "kiosk.hosts": "more host names the kiosk answers to (comma-separated), beyond the listen address, localhost, this machine's name and IP addresses; any other Host header is refused with 421 (DNS rebinding)",
        "kiosk.token": "the API token itself (prefer kiosk.token_file, which keeps it out of the configuration)",
    ]

    /// Resolved values, and where each came from ("--set", "RECORDER_S3_BUCKET", "file:line").
    public private(set) var values: [String: String] = [:]
    public private(set) var origins: [String: String] = [:]
    /// The configuration file read, if any.
    public let file: String?
    let environment: [String: String]

    /// `flags` are keys set on the command line; `file` is `--config`, else `RECORDER_CONFIG`, else
    /// `$XDG_CONFIG_HOME/recorder/recorder.conf` or `/etc/recorder/recorder.conf` when they exist.
    public init(flags: [String: String], configFile: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(RecorderError) {
        self.environment = environment
        let explicit = configFile ?? environment["RECORDER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let file = explicit ?? [Self.home(environment, "XDG_CONFIG_HOME", ".config") + "/recorder/recorder.conf",
                                "/etc/recorder/recorder.conf"].first { FileManager.default.fileExists(atPath: $0) }
        self.file = file
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw RecorderError("cannot read the configuration file \(file). Create it, fix its permissions, or point --config / RECORDER_CONFIG elsewhere.",
                                    exitStatus: .config)
            }
            for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmed()
                if line.isEmpty || line.hasPrefix("#") { continue }
                guard let eq = line.firstIndex(of: "=") else {
                    throw RecorderError("\(file):\(number + 1): expected 'key = value', got '\(line)'.", exitStatus: .config)
                }
                let key = line[..<eq].trimmed()
                var value = line[line.index(after: eq)...].trimmed()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                try Self.checkKey(key, origin: "\(file):\(number + 1)")
                set(key, value, origin: "\(file):\(number + 1)")
            }
        }
        for key in Self.keys.keys {
            let name = Self.environmentName(key)
            if let value = environment[name], !value.isEmpty { set(key, value, origin: name) }
        }
        for (key, value) in flags {
            try Self.checkKey(key, origin: "the command line")
            set(key, value, origin: "the command line")
        }
    }

    public static func environmentName(_ key: String) -> String {
        "RECORDER_" + key.uppercased().replacing(".", with: "_")
    }

    private static func checkKey(_ key: String, origin: String) throws(RecorderError) {
        guard keys[key] != nil else {
            let known = keys.keys.sorted().joined(separator: ", ")
            throw RecorderError("unknown configuration key '\(key)' in \(origin). Known keys: \(known).", exitStatus: .config)
        }
    }

    private mutating func set(_ key: String, _ value: String, origin: String) {
        values[key] = value
        origins[key] = origin
    }

    /// Where `key`'s value came from, for messages.
    public func origin(_ key: String) -> String { origins[key] ?? "the default" }

    /// A file systemd handed over with LoadCredential= (`$CREDENTIALS_DIRECTORY/name`), if there is one.
    public func credentialFile(_ name: String) -> String? {
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else { return nil }
        let path = directory + "/" + name
        return access(path, R_OK) == 0 ? path : nil
    }

    /// Whether `path` is in the credential directory systemd made for this service (private to it).
    public func isSystemdCredential(_ path: String) -> Bool {
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else { return false }
        return path.hasPrefix(directory + "/")
    }

    /// The number set for `key`, or `fallback`; outside `range` it is a configuration error naming where it came from.
    public func number(_ key: String, default fallback: Double, range: ClosedRange<Double>) throws(RecorderError) -> Double {
        guard let text = values[key] else { return fallback }
        guard let value = Double(text), range.contains(value) else {
            throw RecorderError("\(key) = '\(text)' (from \(origin(key))) must be a number from \(range.lowerBound) to \(range.upperBound).",
                                exitStatus: .config)
        }
        return value
    }

    /// The yes/no set for `key`, or `fallback`; anything but true/false/yes/no/1/0 is a configuration error.
    public func boolean(_ key: String, default fallback: Bool) throws(RecorderError) -> Bool {
        guard let text = values[key] else { return fallback }
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default:
            throw RecorderError("\(key) = '\(text)' (from \(origin(key))) must be true or false.", exitStatus: .config)
        }
    }

    static func home(_ environment: [String: String], _ xdg: String, _ fallback: String) -> String {
        if let dir = environment[xdg], dir.hasPrefix("/") { return dir }
        var home = environment["HOME"] ?? ""
        if home.isEmpty, let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { home = String(cString: dir) }
        return (home.isEmpty ? "/var/lib/recorder" : home) + "/" + fallback
    }

    // MARK: Resolved settings

    public var outboxDirectory: String {
        values["outbox"] ?? Self.home(environment, "XDG_STATE_HOME", ".local/state") + "/recorder/outbox"
    }

    public var localStoreDirectory: String {
        values["local.path"] ?? Self.home(environment, "XDG_DATA_HOME", ".local/share") + "/recorder/store"
    }

    /// The video cache's directory and bounds.
    public func videoCacheSettings() throws(RecorderError) -> VideoCache.Settings {
        let directory: String
        if let path = values["cache.path"] {
            directory = path
        } else if let systemd = environment["CACHE_DIRECTORY"], systemd.hasPrefix("/") {
            // systemd's CacheDirectory= (the first, when it lists several).
            directory = String(systemd.split(separator: ":").first ?? "") + "/videos"
        } else {
            directory = Self.home(environment, "XDG_CACHE_HOME", ".cache") + "/recorder/videos"
        }
        let mib = Double(1 << 20)
        return VideoCache.Settings(directory: directory,
                                   maxDiskBytes: Int64(try number("cache.max_mib", default: 1024, range: 1...16_777_216) * mib),
                                   maxMemoryBytes: Int64(try number("cache.memory_mib", default: 64, range: 0...65_536) * mib))
    }

    public var author: PostMetadata.Author {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PostMetadata.Author(id: values["author_id"] ?? host, name: values["author_name"] ?? values["author_id"] ?? host)
    }

    public func retryPolicy(maximumAttempts: Int?) throws(RecorderError) -> RetryPolicy {
        let initial = try number("retry.initial_seconds", default: 1, range: 0...3600)
        let maximum = try number("retry.max_seconds", default: 60, range: 0...3600)
        return RetryPolicy(initialSeconds: initial, maximumSeconds: max(maximum, initial), maximumAttempts: maximumAttempts)
    }

    /// The configured store. Fails (status 78) on an unknown backend, a bad S3 setting or missing credentials.
    public func makeBackend() throws(RecorderError) -> any StorageBackend {
        switch values["backend"] ?? "local" {
        case "local":
            // Only the default location is made when missing; a configured one must exist.
            let create = try boolean("local.create", default: false)
            return LocalDirectoryBackend(root: localStoreDirectory, createsRoot: values["local.path"] == nil || create)
        case "s3":
            return try makeS3Backend()
        case let other:
            throw RecorderError("unknown backend '\(other)' (from \(origin("backend"))). Use backend = local or backend = s3.",
                                exitStatus: .config)
        }
    }

    private func makeS3Backend() throws(RecorderError) -> S3Backend {
        func required(_ key: String) throws(RecorderError) -> String {
            guard let value = values[key], !value.isEmpty else {
                throw RecorderError("backend = s3 needs \(key): set it in the configuration file, as \(Self.environmentName(key)), or with --set \(key)=...",
                                    exitStatus: .config)
            }
            return value
        }
        let addressing = values["s3.addressing"] ?? "path"
        guard addressing == "path" || addressing == "virtual" else {
            throw RecorderError("s3.addressing = '\(addressing)' must be path or virtual.", exitStatus: .config)
        }
        let endpoint = try required("s3.endpoint")
        let bucket = try required("s3.bucket")
        let mib = Double(1 << 20)
        let threshold = Int64(try number("s3.multipart_threshold_mib", default: 16, range: 5...5_000_000) * mib)
        let partSize = Int64(try number("s3.part_size_mib", default: 8, range: 0...5120) * mib)
        let parallel = Int(try number("s3.parallel_parts", default: 4, range: 1...16))
        let transfer = TransferSettings(
            connectTimeoutSeconds: Int(try number("network.connect_timeout_seconds", default: 10, range: 1...600)),
            stallTimeoutSeconds: Int(try number("network.stall_timeout_seconds", default: 30, range: 1...3600)))
        do throws(StorageError) {
            let credentials = try S3Credentials.load(environment: environment,
                                                     file: values["s3.credentials_file"] ?? credentialFile("s3-credentials"))
            let configuration = S3Configuration(
                endpoint: endpoint, region: values["s3.region"] ?? "us-east-1", bucket: bucket,
                prefix: values["s3.prefix"] ?? "", pathStyle: addressing == "path", credentials: credentials,
                multipartThreshold: threshold, partSize: partSize, parallelParts: parallel, transfer: transfer)
            return try S3Backend(configuration)
        } catch {
            throw RecorderError(error, exitStatus: .config)
        }
    }
}
