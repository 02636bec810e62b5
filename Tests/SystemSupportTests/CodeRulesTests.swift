import Foundation
import Testing

/// Rules about where threads come from and why shared state is safe, checked on the sources so a
/// change that breaks one fails here instead of waiting for a reviewer.
@Suite struct CodeRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path

    /// Every Swift file under Sources: (path relative to Sources, lines).
    static func swiftFiles() throws -> [(name: String, lines: [String])] {
        let paths = try #require(FileManager.default.subpaths(atPath: sources)).filter { $0.hasSuffix(".swift") }.sorted()
        return try paths.map { path in
            (path, try String(contentsOfFile: sources + "/" + path, encoding: .utf8).components(separatedBy: "\n"))
        }
    }

    /// Lines of code (not comments) that contain `text`, as "file:line".
    static func uses(of text: String) throws -> [(file: String, line: Int)] {
        try swiftFiles().flatMap { file in
            file.lines.enumerated().compactMap { index, line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.hasPrefix("//") && code.contains(text) ? (file.name, index + 1) : nil
            }
        }
    }

    @Test func theRulesSeeTheSources() throws {
        // Guards the other checks against passing because they read nothing.
        let files = try Self.swiftFiles()
        #expect(files.count > 50)
        #expect(try Self.uses(of: "import ").count > 100)
        #expect(try Self.uses(of: "@unchecked Sendable").count >= 1)
    }

    @Test func everyUncheckedSendableSaysWhatMakesItSafe() throws {
        for file in try Self.swiftFiles() {
            for (index, line) in file.lines.enumerated() where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // The comment block right above the declaration names the lock or thread.
                var above = index - 1
                var comment: [String] = []
                while above >= 0, file.lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    comment.insert(file.lines[above], at: 0)
                    above -= 1
                }
                #expect(comment.joined().contains("`@unchecked Sendable`:"),
                        "\(file.name):\(index + 1) is @unchecked Sendable without a comment saying why (\"`@unchecked Sendable`: ...\")")
            }
        }
    }

    /// Dispatch queues are not how this code runs blocking work: short calls go through
    /// `BlockingWork`, long ones have a thread of their own.
    @Test func noDispatchQueues() throws {
        let found = try Self.uses(of: "DispatchQueue(")
        #expect(found.isEmpty, "DispatchQueue where BlockingWork or a thread of its own belongs: \(found.map { "\($0.file):\($0.line)" })")
    }

    /// Threads are started only by the blocking-work helper and by the long-lived owners of a
    /// device or a transfer.
    @Test func threadsStartOnlyWhereTheyOwnSomething() throws {
        let allowed: Set<String> = [
            "SystemSupport/WorkerThread.swift",   // the primitive itself
            "SystemSupport/BlockingWork.swift",   // its helper threads, started once
            "Shooting/Recording.swift",           // one thread per shot: open to release
            "Shooting/PreviewSession.swift",      // the preview's thread, while somebody watches
            "SystemSupport/DrainThread.swift",    // the outbox's and the mail's drains, for the life of the kiosk
            "MediaEncoder/EncodePipeline.swift",  // a shot's encoding thread, overlapping its capture
            "AudioCapture/AlsaCaptureSource.swift", // a microphone's capture thread, start to close
            "KioskService/StateHook.swift",       // kiosk.on_state's runner, for the life of the kiosk
            "TriggerInput/TriggerButton.swift",   // the booth button's reader, which owns its device for the life of the kiosk
            "Preflight/PreflightProbe.swift",     // a preflight check's blocking work, for its run: one that hangs holds only its own
        ]
        let found = try (Self.uses(of: "WorkerThread.start(") + Self.uses(of: "pthread_create(")).filter { !allowed.contains($0.file) }
        #expect(found.isEmpty, "threads started outside the allowed owners: \(found.map { "\($0.file):\($0.line)" })")
    }

    /// The file system's calls (open, read, write, fsync, rename, unlink, stat...) are made in one
    /// place, `Posix` (errno captured at the call, EINTR retried, a typed error), and durable
    /// writes in `FileSystem` over it: no module makes them raw.
    @Test func fileSystemCallsGoThroughPosix() throws {
        // Left for later, each with its reason.
        let allowed: Set<String> = [
            "SystemSupport/Posix.swift",          // the funnel itself
            "KioskHTTP/HTTPSelfProbe.swift",      // a socket's close: not the file system
            "KioskService/SystemdNotifier.swift", // the same
            "PageEmbedder/main.swift",            // a build tool, with no module under it
        ]
        let calls = #/(?:^|[^\w.])(open|close|read|write|pread|pwrite|fsync|fdatasync|rename|unlink|mkdir|rmdir|link|symlink|readlink|truncate|ftruncate|flock|access|stat|fstat|lstat|statvfs|dup|pipe)\(([^()]*(?:\([^()]*\))*[^()]*)\)/#
        let label = #/\b[a-z]\w*: /#
        let names = ["open(", "close(", "read(", "write(", "sync(", "rename(", "unlink(", "mkdir(", "rmdir(", "link(",
                     "truncate(", "flock(", "access(", "stat(", "statvfs(", "dup(", "pipe("]
        var found: [String] = []
        for file in try Self.swiftFiles() where !allowed.contains(file.name) {
            for (index, line) in file.lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), !code.hasPrefix("func "), !code.contains(" func ") else { continue }
                // (the regular expression only where a name can match: it is slow on every line)
                guard names.contains(where: { code.contains($0) }) else { continue }
                for match in code.matches(of: calls) {
                    let arguments = String(match.output.2)
                    // A C call has arguments and no labels; a method of our own (`close()`,
                    // `read(fd, wake:)`, `stat(key:)`) has a label or none, and `try` before it.
                    if arguments.isEmpty || arguments.contains(label) { continue }
                    if code[..<match.output.1.startIndex].hasSuffix("try ") { continue }
                    found.append("\(file.name):\(index + 1): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "raw file system calls, where Posix (SystemSupport) belongs:\n\(found.joined(separator: "\n"))")
    }

    /// A result thrown away says why, in a `//` comment on its line or just above it: a failed
    /// unlink, a refused system setting, a C call whose status is not needed.
    @Test func everyDroppedResultSaysWhy() throws {
        var found: [String] = []
        for file in try Self.swiftFiles() {
            for (index, line) in file.lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                // A statement whose result goes nowhere (not one whose optional is used).
                guard code.contains("try? Posix.") || code.hasPrefix("_ = "),
                      code.contains(#/(?:^|\{ )try\? Posix\./#) || code.contains(#/^_ = [a-z_]\w*\(/#) else { continue }
                // The comment may be the block above a few lines of cleanup that share it.
                let above = file.lines[max(0, index - 4)..<index].map { $0.trimmingCharacters(in: .whitespaces) }
                let said = code.contains("//") || above.contains { $0.hasPrefix("//") }
                if !said { found.append("\(file.name):\(index + 1): \(code)") }
            }
        }
        #expect(found.isEmpty, "results dropped without a comment saying why:\n\(found.joined(separator: "\n"))")
    }

    /// Each module imports, of this package's modules, only those Package.swift gives it as
    /// direct dependencies. The compiler alone lets a module import anything it depends on through
    /// another (SwiftPM's --explicit-target-dependency-import-check too), so this is what holds the
    /// layers: the CLI and the kiosk reach the camera, the encoder and the store only through the
    /// subject modules (Shooting, Publishing, Library, Settings), and those only downwards.
    @Test func everyModuleImportsOnlyWhatPackageSwiftGivesIt() throws {
        let root = URL(fileURLWithPath: Self.sources).deletingLastPathComponent().path
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        dump.arguments = ["swift", "package", "--package-path", root, "dump-package"]
        let pipe = Pipe()
        dump.standardOutput = pipe
        try dump.run()
        let json = pipe.fileHandleForReading.readDataToEndOfFile()
        dump.waitUntilExit()
        try #require(dump.terminationStatus == 0, "swift package dump-package failed")
        struct Manifest: Decodable {
            struct Target: Decodable {
                var name: String
                var dependencies: [[String: [String?]]]
            }
            var targets: [Target]
        }
        // A dependency is {"byName": [name, condition]}, {"target": [...]} or {"product": [name, package, ...]}.
        let targets = try JSONDecoder().decode(Manifest.self, from: json).targets
        let ours = Set(targets.map(\.name))
        let allowed = Dictionary(targets.map { target in
            (target.name, Set(target.dependencies.compactMap { $0.values.first?.first ?? nil }))
        }, uniquingKeysWith: { first, _ in first })
        let imports = #/^\s*(?:@\w+\s+)?(?:package\s+|internal\s+|public\s+)?import\s+(\w+)/#
        var found: [String] = []
        var checked = 0
        for file in try Self.swiftFiles() {
            let module = String(file.name.prefix { $0 != "/" })
            guard let given = allowed[module] else { continue }
            for (index, line) in file.lines.enumerated() {
                guard let match = line.firstMatch(of: imports) else { continue }
                let imported = String(match.output.1)
                guard ours.contains(imported) else { continue }
                checked += 1
                if !given.contains(imported) { found.append("\(file.name):\(index + 1): \(module) imports \(imported)") }
            }
        }
        #expect(checked > 200, "only \(checked) imports of the package's own modules checked")
        #expect(found.isEmpty, "imports Package.swift does not give the module (add the dependency, or go through a subject module):\n\(found.joined(separator: "\n"))")
    }

    /// Every module stays small enough to hold in one's head (issue 41): RecorderCore was split
    /// by subject into Settings, Shooting, Publishing and Library, and KioskService into
    /// KioskWords, KioskHTTP, KioskState and KioskService.
    @Test func noModuleIsOver4000Lines() throws {
        let files = try Self.swiftFiles()
        let modules = Dictionary(grouping: files) { String($0.name.prefix { $0 != "/" }) }
        // Guards the check against passing because it saw no module, or not the split ones.
        for module in ["Settings", "Shooting", "Publishing", "Library", "KioskWords", "KioskHTTP", "KioskState", "KioskService", "RecorderCLI"] {
            #expect(modules[module] != nil, "no sources for \(module)")
        }
        for (module, sources) in modules.sorted(by: { $0.key < $1.key }) {
            let lines = sources.reduce(0) { $0 + $1.lines.count }
            #expect(lines <= 4000, "\(module) has \(lines) lines: split it by subject")
        }
    }
}
