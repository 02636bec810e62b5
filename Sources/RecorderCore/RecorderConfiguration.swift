import FoundationEssentials
import Glibc
package import StorageUpload
internal import SystemSupport
import VideoCapture
import MediaEncoder

/// Settings for posting, uploading, shooting and the kiosk, resolved from (highest first)
/// command-line flags, the environment (`RECORDER_` + the key in capitals, dots as underscores:
/// `s3.bucket` is `RECORDER_S3_BUCKET`), and the configuration file.
///
/// The file: one `key = value` per line. `#` starts a comment at the start of a line or after
/// whitespace (`a # b` is `a`; `a#b` is `a#b`); a value in double quotes is taken as it is, `#` and
/// spaces included (`"a # b"`). Blank lines are ignored. A key set twice, a line that is not valid
/// UTF-8, an unknown key or a value out of range is an error naming the file and line (exit 78).
package struct RecorderConfiguration: Sendable {
    /// Every key the file, the environment and `--set` accept.
    package static let keys: [String: String] = [
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
        "workspace": "shot workspace directory of `recorder shoot`, `post` and `kiosk` (default: $STATE_DIRECTORY/workspace under systemd, else $XDG_RUNTIME_DIR/recorder)",
        "shoot.device": "camera of `recorder shoot` (--device): auto (default: the first camera, else the test pattern), a /dev path, a by-id name, an index, testsrc or y4m:FILE",
        "shoot.size": "picture size of `recorder shoot` and of kiosk shots (--size), WIDTHxHEIGHT (default 1280x720, or the closest the camera offers)",
        "shoot.fps": "frames per second of `recorder shoot` and of kiosk shots (--fps), 1-240 (default 30, or the closest the camera offers)",
        "shoot.format": "camera pixel format of `recorder shoot` and of kiosk shots (--format): auto (default) or yuyv, nv12, mjpeg, ...",
        "shoot.preset": "x264 preset of `recorder shoot` and of kiosk shots (--preset): ultrafast ... veryslow (default veryfast)",
        "shoot.crf": "x264 constant rate factor of `recorder shoot` and of kiosk shots (--crf), 0-51 (default 23)",
        "shoot.bitrate": "average bitrate of `recorder shoot` and of kiosk shots in kbit/s (--bitrate), 50-200000 (default: constant quality)",
        "shoot.seconds": "length of a `recorder shoot` shot (--seconds), more than 0, at most 21600 (default 15)",
        "shoot.min_seconds": "a shot (also a kiosk shot) stopped early with less than this is discarded (--min-seconds), 0-600 (default 1)",
        "audio.device": "sound of `recorder shoot` and the kiosk (--audio): auto (default: the camera's own microphone, the test beep with the test pattern), none, beep, or an ALSA capture device such as hw:CARD=C920,DEV=0",
        "audio.bitrate_kbps": "AAC bitrate in kbit/s, 32-320 (default 128 for stereo, 96 for mono)",
        "kiosk.listen": "address:port the kiosk's page and API listen on (default 127.0.0.1:8080)",
        "kiosk.device": "the kiosk's camera: auto (default: the first camera, else the test pattern), a /dev path or a by-id name",
        "kiosk.seconds": "length of a kiosk shot in seconds (default 15)",
        "kiosk.countdown_seconds": "countdown before a kiosk shot starts (default 3)",
        "kiosk.token_file": "file holding the operator's token (everything: the booth's calls, the operator page, moderation, the feed, metrics; needed when listening beyond loopback; systemd: LoadCredential=kiosk-token)",
        "kiosk.booth_token_file": "file holding the booth's token (the guest page's calls only: shoot, stop, review, post, discard its own shot, the live mirror, the status; systemd: LoadCredential=kiosk-booth-token); empty or absent: the booth logs in with the operator's token",
        "kiosk.booth_token": "the booth's token itself (prefer kiosk.booth_token_file)",
        "kiosk.max_connections": "connections the kiosk keeps open at once from other machines, 16-10000 (default 512; the booth's own browser on loopback is never refused for this)",
        "kiosk.max_connections_per_client": "connections one address may keep open at once, 4-1000 (default 32)",
        "kiosk.hosts": "more host names the kiosk answers to (comma-separated), beyond the listen address, localhost, this machine's name and IP addresses; any other Host header is refused with 421 (DNS rebinding)",
        "kiosk.token": "the operator's token itself (prefer kiosk.token_file, which keeps it out of the configuration)",
        "kiosk.review_seconds": "how long the guest page shows a new clip (Post, Retake, Delete) before it returns to the live camera by itself, 3-600 (default 30)",
        "kiosk.review_unposted": "what happens to a clip nobody posted or deleted when the review times out: keep (default: it stays the current shot, for the operator) or discard",
        "kiosk.language": "the guest page's language: en (default) or de",
        "kiosk.on_state": "an executable (full path) the kiosk runs with each new state as its argument (idle, countdown, starting, recording, finishing, failed, camera-missing), to drive a lamp or a relay; at most 5 s a run, never waited for",
        "kiosk.trigger": "the booth's button, read by recorder itself: an input device node (a USB arcade button or foot switch is a keyboard: /dev/input/by-id/...-event-kbd), auto for the first USB or Bluetooth one whose name matches kiosk.trigger_match (never the machine's own power button), or empty for none; taken for recorder alone (its key reaches no other program), it records, or stops a shot under way, and is taken again after it is unplugged and plugged back",
        "kiosk.trigger_match": "for kiosk.trigger = auto: words separated by |, one of which (in any case) the input device's name contains (default button|switch|pedal|foot)",
        "share.base_url": "where a post's share link points, as a template with {id} (the post's id), {key} (its video's key in the store, prefix included) or {token} (its share page's capability), e.g. https://cdn.example.com/{key} for a public bucket or a CDN, https://booth.example.com/s/{token} for the kiosk's share page behind a proxy; empty (default): a presigned link for an S3 store, the kiosk's own share page for the local store",
        "share.expires_hours": "how long a share link works (a presigned one, or the kiosk's share page), 1-168 hours (default 168: 7 days, SigV4's limit)",
        "kiosk.preview_idle_seconds": "how long the live camera stays open after the last viewer (the guest page, the operator page's preview), 1-3600 s (default 10); then the camera is closed until somebody looks again",
        "kiosk.attract_seconds": "seconds without a guest before the start screen plays the recent posts (muted, one after another) over the live camera until somebody touches it; 0 (default) for never",
        "kiosk.countdown_sound": "on: a short beep at each number of the countdown and a higher one as recording starts, from the guest page; off (default)",
        "kiosk.trigger_key": "one more key that works like the record button on the guest page, beside Space and Enter, as a browser names it (KeyboardEvent.key or .code, e.g. F13 or KeyR); empty for none",
    ]

    /// What a key's value must look like; keys not listed take any text.
    enum Rule {
        /// A number in the range; `integer`: a whole one.
        case number(ClosedRange<Double>, integer: Bool = false)
        /// More than 0 and at most the limit.
        case positive(Double)
        case boolean
        case choice([String])
        case listen
        case token
        case frameSize
        case pixelFormat
    }

    static let rules: [String: Rule] = [
        "backend": .choice(["local", "s3"]),
        "local.create": .boolean,
        "s3.addressing": .choice(["path", "virtual"]),
        "s3.multipart_threshold_mib": .number(5...5_000_000),
        "s3.part_size_mib": .number(0...5120),
        "s3.parallel_parts": .number(1...16, integer: true),
        "network.connect_timeout_seconds": .number(1...600, integer: true),
        "network.stall_timeout_seconds": .number(1...3600, integer: true),
        "retry.initial_seconds": .number(0...3600),
        "retry.max_seconds": .number(0...3600),
        "cache.max_mib": .number(1...16_777_216),
        "cache.memory_mib": .number(0...65_536),
        "shoot.size": .frameSize,
        "shoot.fps": .number(1...240),
        "shoot.format": .pixelFormat,
        "shoot.preset": .choice(EncoderSettings.presets),
        "shoot.crf": .number(0...51, integer: true),
        "shoot.bitrate": .number(50...200_000, integer: true),
        "shoot.seconds": .positive(ShotRequest.maximumSeconds),
        "shoot.min_seconds": .number(0...600),
        "kiosk.listen": .listen,
        "kiosk.seconds": .number(1...600),
        "audio.bitrate_kbps": .number(32...320, integer: true),
        "kiosk.countdown_seconds": .number(0...60, integer: true),
        "kiosk.token": .token,
        "kiosk.booth_token": .token,
        "kiosk.max_connections": .number(16...10000, integer: true),
        "kiosk.max_connections_per_client": .number(4...1000, integer: true),
        "kiosk.review_seconds": .number(3...600, integer: true),
        "kiosk.review_unposted": .choice(["keep", "discard"]),
        "kiosk.language": .choice(["en", "de"]),
        "kiosk.attract_seconds": .number(0...86400, integer: true),
        "kiosk.preview_idle_seconds": .number(1...3600),
        "share.expires_hours": .number(1...168),
        "kiosk.countdown_sound": .choice(["on", "off"]),
    ]

    /// The fixed defaults (the others depend on the environment: see `effectiveValue(_:)`).
    static let defaults: [String: String] = [
        "backend": "local", "local.create": "false", "s3.region": "us-east-1", "s3.prefix": "", "s3.addressing": "path",
        "s3.multipart_threshold_mib": "16", "s3.part_size_mib": "8", "s3.parallel_parts": "4",
        "network.connect_timeout_seconds": "10", "network.stall_timeout_seconds": "30",
        "retry.initial_seconds": "1", "retry.max_seconds": "60", "cache.max_mib": "1024", "cache.memory_mib": "64",
        "shoot.device": "auto", "shoot.format": "auto", "shoot.preset": "veryfast", "shoot.crf": "23",
        "shoot.seconds": "15", "shoot.min_seconds": "1", "audio.device": "auto",
        "kiosk.listen": "127.0.0.1:8080", "kiosk.device": "auto", "kiosk.seconds": "15", "kiosk.countdown_seconds": "3",
        "kiosk.hosts": "", "kiosk.review_seconds": "30", "kiosk.review_unposted": "keep", "kiosk.language": "en", "kiosk.trigger_key": "",
        "kiosk.trigger": "", "kiosk.trigger_match": "button|switch|pedal|foot", "kiosk.attract_seconds": "0", "kiosk.countdown_sound": "off",
        "kiosk.preview_idle_seconds": "10", "share.expires_hours": "168",
        "kiosk.max_connections": "512", "kiosk.max_connections_per_client": "32",
    ]

    /// One thing wrong with the configuration, and where: "file:line", an environment variable's
    /// name, or "the command line" (empty when the message names the file: it cannot be read).
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package var location: String
        package var message: String
        package var description: String { location.isEmpty ? message : "\(location): \(message)" }
    }

    /// Resolved values, and where each came from ("the command line", "RECORDER_S3_BUCKET", "file:line").
    package private(set) var values: [String: String] = [:]
    package private(set) var origins: [String: String] = [:]
    /// The configuration file read, if any.
    package let file: String?
    let environment: [String: String]
    /// Everything wrong, in file order, then the environment's, then the command line's.
    package private(set) var problems: [Problem] = []

    /// `flags` are keys set on the command line; `file` is `--config`, else `RECORDER_CONFIG`, else
    /// `$XDG_CONFIG_HOME/recorder/recorder.conf` or `/etc/recorder/recorder.conf` when they exist.
    /// Every value is checked here, so a mistake fails the command at once (status 78), naming
    /// where it is; `recorder config check` lists them all.
    package init(flags: [String: String], configFile: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(RecorderError) {
        self.init(collecting: flags, configFile: configFile, environment: environment)
        if let first = problems.first {
            let more = problems.count > 1 ? " (\(problems.count - 1) more problem(s): recorder config check lists them all)" : ""
            throw RecorderError("\(first)\(more)", exitStatus: .config)
        }
    }

    /// Reads everything it can and records each problem in `problems` instead of stopping at the first.
    package init(collecting flags: [String: String], configFile: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        let explicit = configFile ?? environment["RECORDER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let file = explicit ?? [Self.home(environment, "XDG_CONFIG_HOME", ".config") + "/recorder/recorder.conf",
                                "/etc/recorder/recorder.conf"].first { FileManager.default.fileExists(atPath: $0) }
        self.file = file
        if let file {
            do throws(RecorderError) {
                let lines = try Self.parse(Self.readFile(file), file: file)
                var firstLine: [String: Int] = [:]
                for line in lines {
                    switch line {
                    case .problem(let problem):
                        problems.append(problem)
                    case .entry(let number, let key, let value):
                        let location = "\(file):\(number)"
                        if let message = Self.unknownKey(key) {
                            problems.append(Problem(location: location, message: message))
                        } else if let first = firstLine[key] {
                            problems.append(Problem(location: location,
                                                    message: "\(key) is set again (first on line \(first)). Keep one of the two lines."))
                        } else {
                            firstLine[key] = number
                            set(key, value, origin: location)
                        }
                    }
                }
            } catch {
                // The message names the file already.
                problems.append(Problem(location: "", message: error.message))
            }
        }
        for key in Self.keys.keys.sorted() {
            let name = Self.environmentName(key)
            if let value = environment[name], !value.isEmpty { set(key, value, origin: name) }
        }
        for (key, value) in flags.sorted(by: { $0.key < $1.key }) {
            if let message = Self.unknownKey(key) {
                problems.append(Problem(location: "the command line", message: message))
                continue
            }
            set(key, value, origin: "the command line")
        }
        problems = Self.inOrder(problems + validate(), file: file)
    }

    /// The file's problems by line, then the environment's, then the command line's.
    private static func inOrder(_ problems: [Problem], file: String?) -> [Problem] {
        func rank(_ problem: Problem) -> (Int, Int) {
            if let file, problem.location.hasPrefix(file + ":") {
                return (0, Int(problem.location.dropFirst(file.count + 1)) ?? 0)
            }
            if problem.location.isEmpty { return (0, 0) }
            return problem.location.hasPrefix("RECORDER_") ? (1, 0) : (2, 0)
        }
        return problems.enumerated().sorted {
            let (a, b) = (rank($0.element), rank($1.element))
            return (a.0, a.1, $0.offset) < (b.0, b.1, $1.offset)
        }.map(\.element)
    }

    package static func environmentName(_ key: String) -> String {
        "RECORDER_" + key.uppercased().replacing(".", with: "_")
    }

    private static func unknownKey(_ key: String) -> String? {
        guard keys[key] == nil else { return nil }
        let known = keys.keys.sorted().joined(separator: ", ")
        return "unknown configuration key '\(key)'. Known keys: \(known)."
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

    /// The file's bytes; a missing file, a directory or an unreadable one is an error saying which.
    static func readFile(_ path: String) throws(RecorderError) -> [UInt8] {
        let elsewhere = "or point --config / RECORDER_CONFIG elsewhere"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw RecorderError("the configuration file \(path) does not exist. Create it, \(elsewhere).", exitStatus: .config)
            case EACCES: throw RecorderError("cannot read the configuration file \(path): permission denied. Fix its permissions (chmod 644, or 640 with the service's group), \(elsewhere).", exitStatus: .config)
            default: throw RecorderError("cannot open the configuration file \(path): \(String(cString: strerror(code))). Fix it, \(elsewhere).", exitStatus: .config)
            }
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & 0o170000 == 0o040000 {
            throw RecorderError("the configuration file \(path) is a directory. Point --config / RECORDER_CONFIG at the file, e.g. \(path)/recorder.conf.", exitStatus: .config)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw RecorderError("cannot read the configuration file \(path): \(String(cString: strerror(errno))). Fix it, \(elsewhere).", exitStatus: .config)
            }
            bytes += buffer[0..<count]
            if bytes.count > 1 << 20 {
                throw RecorderError("the configuration file \(path) is over 1 MiB: not a configuration file. Point --config / RECORDER_CONFIG at the right file.", exitStatus: .config)
            }
        }
        return bytes
    }

    /// `key = value` lines. `#` starts a comment at the start of a line or after whitespace; a
    /// value wholly in double quotes is taken as it is (the quotes removed, no escapes).
    static func parse(_ bytes: [UInt8], file: String) -> [Line] {
        var lines: [Line] = []
        for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let location = "\(file):\(number)"
            guard let text = String(validating: raw, as: UTF8.self) else {
                lines.append(.problem(Problem(location: location, message: "the line is not valid UTF-8 text. Save the file as UTF-8.")))
                continue
            }
            let line = text.trimmed()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                lines.append(.problem(Problem(location: location, message: "expected 'key = value', got '\(line)'.")))
                continue
            }
            let key = line[..<eq].trimmed()
            let rest = line[line.index(after: eq)...].trimmed()
            var value: String
            if rest.hasPrefix("\"") {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    lines.append(.problem(Problem(location: location, message: "the value of \(key) opens a double quote and does not close it. Add the closing \" at the end of the value.")))
                    continue
                }
                let after = body[body.index(after: close)...].trimmed()
                guard after.isEmpty || after.hasPrefix("#") else {
                    lines.append(.problem(Problem(location: location, message: "text after the closing quote of \(key)'s value: '\(after)'. Put the whole value in the quotes, or a comment after ' #'.")))
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
            guard let rule = Self.rules[key], let value = values[key],
                  let problem = Self.check(value, rule) else { return nil }
            if key == "backend" {
                return Problem(location: origin(key), message: "unknown backend '\(value)'. Use backend = local or backend = s3.")
            }
            return Problem(location: origin(key), message: "\(key) = '\(value)' \(problem)")
        }
    }

    /// What is wrong with `value` under `rule`, as the end of a sentence, or nil.
    static func check(_ value: String, _ rule: Rule) -> String? {
        switch rule {
        case .number(let range, let integer):
            let kind = integer ? "a whole number" : "a number"
            let bounds = "from \(format(range.lowerBound)) to \(format(range.upperBound))"
            guard let number = Double(value), number.isFinite, range.contains(number),
                  !integer || number.rounded() == number else { return "must be \(kind) \(bounds)." }
            return nil
        case .positive(let limit):
            guard let number = Double(value), number.isFinite, number > 0, number <= limit else {
                return "must be a number of seconds more than 0 and at most \(format(limit))."
            }
            return nil
        case .boolean:
            return parseBoolean(value) == nil ? "must be true or false." : nil
        case .choice(let choices):
            return choices.contains(value) ? nil : "must be one of: \(choices.joined(separator: ", "))."
        case .listen:
            return parseListen(value) == nil
                ? "must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080, with a port from 1 to 65535." : nil
        case .token:
            return value.isEmpty ? nil : TokenStrength.problem(value)
        case .frameSize:
            guard let size = FrameSize(parsing: value), (16...8192).contains(size.width), (16...8192).contains(size.height) else {
                return "must be WIDTHxHEIGHT with each from 16 to 8192, e.g. 1280x720."
            }
            return nil
        case .pixelFormat:
            guard value == "auto" || PixelFormat(name: value) != nil else {
                return "must be auto or one of: \(PixelFormat.allCases.map(\.name).joined(separator: ", "))."
            }
            return nil
        }
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }

    static func parseBoolean(_ text: String) -> Bool? {
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
        return access(path, R_OK) == 0 ? path : nil
    }

    /// Whether `path` is in the credential directory systemd made for this service (private to it).
    package func isSystemdCredential(_ path: String) -> Bool {
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else { return false }
        return path.hasPrefix(directory + "/")
    }

    /// The number set for `key`, else its default; the value was checked against its key's rule
    /// when the configuration was read.
    package func number(_ key: String) throws(RecorderError) -> Double {
        let text = values[key] ?? Self.defaults[key] ?? ""
        if let rule = Self.rules[key], let problem = Self.check(text, rule) {
            throw RecorderError("\(origin(key)): \(key) = '\(text)' \(problem)", exitStatus: .config)
        }
        guard let value = Double(text) else {
            throw RecorderError("\(origin(key)): \(key) = '\(text)' must be a number.", exitStatus: .config)
        }
        return value
    }

    /// The number set for `key`, or nil when it is not set (a key with no default).
    package func optionalNumber(_ key: String) throws(RecorderError) -> Double? {
        values[key] == nil ? nil : try number(key)
    }

    /// The yes/no set for `key`, or its default; anything but true/false/yes/no/on/off/1/0 is a configuration error.
    package func boolean(_ key: String) throws(RecorderError) -> Bool {
        let text = values[key] ?? Self.defaults[key] ?? "false"
        guard let value = Self.parseBoolean(text) else {
            throw RecorderError("\(origin(key)): \(key) = '\(text)' must be true or false.", exitStatus: .config)
        }
        return value
    }

    /// The text set for `key`, else its default (nil when it has none, or is "auto" or empty for a device).
    package func text(_ key: String) -> String? {
        values[key] ?? Self.defaults[key]
    }

    /// The value in effect for every key (secrets masked) and where it came from: "flag",
    /// an environment variable's name, "file:line", or "default"; nil value: not set, no default.
    package func effectiveValues() -> [(key: String, value: String?, origin: String)] {
        Self.keys.keys.sorted().map { key in
            let origin = origins[key].map { $0 == "the command line" ? "flag" : $0 } ?? "default"
            return (key, effectiveValue(key).map { Self.masked(key, $0) }, origin)
        }
    }

    func effectiveValue(_ key: String) -> String? {
        if let value = values[key] { return value }
        switch key {
        case "outbox": return outboxDirectory
        case "local.path": return localStoreDirectory
        case "cache.path": return try? videoCacheSettings().directory
        case "workspace": return workspaceDirectory
        case "author_id": return author.id
        case "author_name": return author.name
        case "kiosk.token_file": return credentialFile("kiosk-token")
        case "kiosk.booth_token_file": return credentialFile("kiosk-booth-token")
        default: return Self.defaults[key]
        }
    }

    /// Secrets never shown: the token, anything named like a secret or password, and the password
    /// in a URL (`https://user:password@host`).
    static func masked(_ key: String, _ value: String) -> String {
        if value.isEmpty { return value }
        let name = key.lowercased()
        if (name.hasSuffix("token") || name.contains("secret") || name.contains("password")) && !name.hasSuffix("_file") {
            return "********"
        }
        if let scheme = value.firstRange(of: "://") {
            let rest = value[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@") {
                let user = authority[..<at].prefix { $0 != ":" }
                return String(value[..<scheme.upperBound]) + user + ":********" + String(rest[at...])
            }
        }
        return value
    }

    static func home(_ environment: [String: String], _ xdg: String, _ fallback: String) -> String {
        if let dir = environment[xdg], dir.hasPrefix("/") { return dir }
        var home = environment["HOME"] ?? ""
        if home.isEmpty, let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { home = String(cString: dir) }
        return (home.isEmpty ? "/var/lib/recorder" : home) + "/" + fallback
    }

    // MARK: Resolved settings

    package var outboxDirectory: String {
        values["outbox"] ?? Self.home(environment, "XDG_STATE_HOME", ".local/state") + "/recorder/outbox"
    }

    /// The shot workspace: `workspace`, else `ShotWorkspace.defaultRoot`.
    package var workspaceDirectory: String {
        values["workspace"].flatMap { $0.isEmpty ? nil : $0 } ?? ShotWorkspace.defaultRoot(environment: environment)
    }

    package var localStoreDirectory: String {
        values["local.path"] ?? Self.home(environment, "XDG_DATA_HOME", ".local/share") + "/recorder/store"
    }

    /// The video cache's directory and bounds.
    package func videoCacheSettings() throws(RecorderError) -> VideoCache.Settings {
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
                                   maxDiskBytes: Int64(try number("cache.max_mib") * mib),
                                   maxMemoryBytes: Int64(try number("cache.memory_mib") * mib))
    }

    package var author: PostMetadata.Author {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PostMetadata.Author(id: values["author_id"] ?? host, name: values["author_name"] ?? values["author_id"] ?? host)
    }

    package func retryPolicy(maximumAttempts: Int?) throws(RecorderError) -> RetryPolicy {
        let initial = try number("retry.initial_seconds")
        let maximum = try number("retry.max_seconds")
        return RetryPolicy(initialSeconds: initial, maximumSeconds: max(maximum, initial), maximumAttempts: maximumAttempts)
    }

    /// The configured store. Fails (status 78) on an unknown backend, a bad S3 setting or missing credentials.
    package func makeBackend() throws(RecorderError) -> any StorageBackend {
        switch values["backend"] ?? "local" {
        case "local":
            // Only the default location is made when missing; a configured one must exist.
            let create = try boolean("local.create")
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
        let threshold = Int64(try number("s3.multipart_threshold_mib") * mib)
        let partSize = Int64(try number("s3.part_size_mib") * mib)
        let parallel = Int(try number("s3.parallel_parts"))
        let transfer = TransferSettings(
            connectTimeoutSeconds: Int(try number("network.connect_timeout_seconds")),
            stallTimeoutSeconds: Int(try number("network.stall_timeout_seconds")))
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
