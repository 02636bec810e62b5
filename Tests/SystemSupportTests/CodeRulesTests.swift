import Foundation
import Testing

/// Rules about where threads come from and why shared state is safe, checked on the sources so a
/// change that breaks one fails here instead of waiting for a reviewer.
@Suite struct CodeRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path

    /// Every Swift file under Sources: (path relative to Sources, lines).
    static func swiftFiles(under root: String = sources) throws -> [(name: String, lines: [String])] {
        let paths = try #require(FileManager.default.subpaths(atPath: root)).filter { $0.hasSuffix(".swift") }.sorted()
        return try paths.map { path in
            (path, try String(contentsOfFile: root + "/" + path, encoding: .utf8).components(separatedBy: "\n"))
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
        let found = Self.rawFileSystemCalls(in: try Self.swiftFiles())
        #expect(found.isEmpty, "raw file system calls, where Posix (SystemSupport) belongs:\n\(found.joined(separator: "\n"))")
    }

    /// The raw file system calls in `files`, as "file:line: code".
    static func rawFileSystemCalls(in files: [(name: String, lines: [String])]) -> [String] {
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
        for file in files where !allowed.contains(file.name) {
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
        return found
    }

    /// The system's other calls (the process, the time, signals, a file's mode or times, stdio)
    /// go through the same funnel, `Posix` in SystemSupport, as do `FileManager`'s (whose failures
    /// carry no errno); the time of day comes from the injected clock (`RecorderClock.date`), not
    /// `Date()`, but as a parameter's default (`now: Date = Date()`: the caller's to give). The
    /// calls found in `files`: each as "file: call" (the allow-list's key) and where, "file:line: code".
    static func funnelViolations(in files: [(name: String, lines: [String])]) -> [(call: String, use: String)] {
        let calls = #/(?:^|[^\w.]|Glibc\.)(usleep|getpid|clock_gettime|signal|realpath|chmod|fchmod|chown|kill|utimes|mkstemps?|fopen|fputs|isatty|getenv|setenv|getuid|geteuid)\(|(FileManager)\.default|(?:^|[^\w.])(Date)\(\)/#
        // Where a parameter's default is the real clock: the caller's to give, not a hidden clock.
        let dateDefault = #/: Date = Date\(\)|-> Date = \{ Date\(\) \}/#
        var found: [(call: String, use: String)] = []
        for file in files where !file.name.hasPrefix("SystemSupport/") && file.name != "PageEmbedder/main.swift" {
            for (index, line) in file.lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                // (a declaration's own name is no call: `func signal()`, `func kill(_ id:)`)
                for match in code.replacing(dateDefault, with: "").replacing(#/func \w+\(/#, with: "").matches(of: calls) {
                    guard let call = match.output.1 ?? match.output.2 ?? match.output.3 else { continue }
                    found.append(("\(file.name): \(call)", "\(file.name):\(index + 1): \(code)"))
                }
            }
        }
        return found
    }

    /// Left for later, each with its reason; an entry no longer needed fails the check, so the
    /// list only shrinks.
    static let funnelLeftForLater: [String: String] = [:]

    @Test func systemCallsGoThroughTheFunnel() throws {
        let found = Self.funnelViolations(in: try Self.swiftFiles())
        let left = found.filter { Self.funnelLeftForLater[$0.call] == nil }.map(\.use)
        #expect(left.isEmpty, "calls where Posix or FileSystem (SystemSupport), or the injected clock, belongs:\n\(left.joined(separator: "\n"))")
        let done = Set(Self.funnelLeftForLater.keys).subtracting(found.map(\.call))
        #expect(done.isEmpty, "no longer found: take them off CodeRulesTests.funnelLeftForLater: \(done.sorted())")
    }

    /// The rules catch what they forbid: each forbidden call planted in a scratch file is found, on
    /// its own line; the funnel's own calls, comments and a parameter's default are not.
    @Test func theRulesCatchEachForbiddenCall() throws {
        let planted = [
            "usleep(20_000)", "let pid = getpid()", "clock_gettime(CLOCK_REALTIME, &ts)", "signal(SIGINT, SIG_IGN)",
            "Glibc.signal(SIGTERM, SIG_DFL)", "guard let real = realpath(path, nil) else { return nil }", "if chmod(path, 0o666) != 0 {}",
            "_ = fchmod(fd, 0o600)", "_ = chown(path, 0, 0)", "kill(pid, 0) != 0", "_ = utimes(file, nil)", "mkstemps($0.baseAddress!, 4)",
            "guard let file = fopen(path, \"w\") else { return nil }", "fputs(line, file)", "let live = isatty(STDOUT_FILENO) == 1",
            "let directory = getenv(\"TMPDIR\")", "setenv(\"TZ\", \"UTC\", 1)", "let uid = getuid()", "if geteuid() == 0 {}",
            "try? FileManager.default.removeItem(atPath: path)", "let now = Date()", "createdAt: Date(), source: name,",
            "func abandon() { try? FileManager.default.removeItem(atPath: path) }",
        ]
        let allowed = [
            "Posix.pause(microseconds: 20_000)", "let pid = Posix.processID", "try Posix.chmod(path, 0o600)", "changed.signal()",
            "// usleep(20_000) was here", "func look(now: Date = Date()) -> Finding", "now: @escaping @Sendable () -> Date = { Date() }",
            "let now = clock.date", "let made = Date(timeIntervalSince1970: 0)",
            "package func signal() { continuation.finish() }", "private func kill(_ id: String) {}",
        ]
        let found = Self.funnelViolations(in: [("Scratch/Planted.swift", planted + allowed)]).map(\.use)
        #expect(found.count == planted.count, "\(found)")
        for (index, line) in planted.enumerated() {
            #expect(found.contains("Scratch/Planted.swift:\(index + 1): \(line)"), "not caught: \(line)")
        }
        // The file system's calls, as fileSystemCallsGoThroughPosix sees them.
        let fileCalls = ["let fd = open(path, O_RDONLY)", "_ = close(fd)", "fsync(fd)", "rename(from, to)", "unlink(path)",
                         "mkdir(path, 0o700)", "stat(path, &info)", "_ = ftruncate(fd, 0)", "let n = read(fd, buffer, 4096)"]
        let fileAllowed = ["try Posix.rename(from, to: to)", "try wake.read(fd, wake: pipe)", "file.close()", "let x = try read(fd, into: buffer)"]
        let raw = Self.rawFileSystemCalls(in: [("Scratch/Planted.swift", fileCalls + fileAllowed)])
        #expect(raw.count == fileCalls.count, "\(raw)")
        for (index, line) in fileCalls.enumerated() {
            #expect(raw.contains("Scratch/Planted.swift:\(index + 1): \(line)"), "not caught: \(line)")
        }
        // And a real scratch file on the disk, read as the sources are.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coderules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("Scratch"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try (planted + fileCalls).joined(separator: "\n").write(to: scratch.appendingPathComponent("Scratch/Planted.swift"), atomically: true, encoding: .utf8)
        let files = try Self.swiftFiles(under: scratch.path)
        #expect(Self.funnelViolations(in: files).count == planted.count)
        #expect(Self.rawFileSystemCalls(in: files).count == fileCalls.count)
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

    // MARK: - The module graph

    /// The layers of the module graph, lowest first. A module depends only on modules of the layers
    /// below its own, or on a module of its own layer listed before it. CONTRIBUTING.md's layout
    /// table lists the same layers, and docs/architecture.md draws the graph they make (both
    /// checked here).
    static let layers: [(name: String, modules: [String])] = [
        ("the system", ["SystemSupport"]),
        ("values", ["MailValues", "MediaValues", "StoreValues", "ShotValues", "PreflightValues", "FleetValues", "Failures"]),
        ("one C library each", ["VideoCapture", "AudioCapture", "TriggerInput", "ShareCode", "MediaEncoder", "StorageUpload"]),
        ("settings and files", ["Settings", "DurableFiles"]),
        ("by subject", ["Shooting", "Publishing", "Library", "Fleet", "Posting", "Preflight"]),
        ("the edges", ["KioskWords", "KioskHTTP", "FleetPage", "ShareServer", "KioskState", "KioskService", "RecorderCLI", "recorder"]),
    ]

    /// Each system-library target's one owner: the only module that depends on it.
    static let cOwners = ["CProcess": "SystemSupport", "CV4L2": "VideoCapture", "CAlsa": "AudioCapture", "CInput": "TriggerInput",
                          "CQRencode": "ShareCode", "CFFmpeg": "MediaEncoder", "CCurl": "StorageUpload", "COpenSSL": "StorageUpload",
                          "CZlib": "StorageUpload"]
    /// The system-library targets that are a library (CProcess and CInput are kernel headers only).
    static let cLibraries: Set<String> = ["CV4L2", "CAlsa", "CQRencode", "CFFmpeg", "CCurl", "COpenSSL", "CZlib"]
    /// What a module must not reach, through any of its dependencies, and why.
    static let mustNotReach: [(modules: [String], forbidden: Set<String>, why: String)] = [
        (["MailValues", "MediaValues", "StoreValues", "ShotValues", "PreflightValues", "FleetValues", "Failures", "Settings", "DurableFiles", "KioskWords", "KioskHTTP"],
         cLibraries, "values, settings, the edges' words and the HTTP plumbing link no C library"),
        (["Publishing", "Library", "Fleet", "KioskHTTP", "FleetPage", "ShareServer"],
         ["VideoCapture", "AudioCapture", "MediaEncoder", "TriggerInput", "Shooting", "Posting", "Preflight"],
         "the share server (recorder serve, ShareServer) and the fleet's page are built from the store, Publishing, Library and KioskHTTP, without capture or encoding"),
    ]
    /// The modules the edges use only through the subject modules: no edge imports them.
    static let throughSubjects: Set<String> = ["VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload"]

    /// Package.swift's targets, as `swift package dump-package` gives them.
    struct Manifest {
        /// Each library or executable target (not the tests, not a build tool's) and its
        /// dependencies among the package's own targets.
        var dependencies: [String: Set<String>]
        var systemLibraries: Set<String>

        /// What `module` reaches through its dependencies, not itself.
        func closure(of module: String) -> Set<String> {
            var seen: Set<String> = []
            var next = Array(dependencies[module] ?? [])
            while let one = next.popLast() {
                if seen.insert(one).inserted { next += dependencies[one] ?? [] }
            }
            return seen
        }

        /// The dependencies between the package's own Swift modules, "A -> B", sorted.
        var edges: [(from: String, to: String)] {
            dependencies.sorted { $0.key < $1.key }.flatMap { module, dependencies in
                dependencies.filter { !systemLibraries.contains($0) }.sorted().map { (module, $0) }
            }
        }
    }

    static let root = URL(fileURLWithPath: sources).deletingLastPathComponent().path

    static func manifest() throws -> Manifest {
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        dump.arguments = ["swift", "package", "--package-path", root, "dump-package"]
        let pipe = Pipe()
        dump.standardOutput = pipe
        try dump.run()
        let json = pipe.fileHandleForReading.readDataToEndOfFile()
        dump.waitUntilExit()
        try #require(dump.terminationStatus == 0, "swift package dump-package failed")
        struct Dump: Decodable {
            struct Target: Decodable {
                var name: String
                var type: String
                var dependencies: [[String: [String?]]]
            }
            var targets: [Target]
        }
        // A dependency is {"byName": [name, condition]}, {"target": [...]} or {"product": [name, package, ...]}.
        let targets = try JSONDecoder().decode(Dump.self, from: json).targets
        let names = Set(targets.map(\.name))
        var manifest = Manifest(dependencies: [:], systemLibraries: Set(targets.filter { $0.type == "system" }.map(\.name)))
        for target in targets where ["regular", "executable"].contains(target.type) && target.name != "PageEmbedder" {
            manifest.dependencies[target.name] = Set(target.dependencies.compactMap { dependency in
                dependency["product"] == nil ? (dependency.values.first?.first ?? nil).flatMap { names.contains($0) ? $0 : nil } : nil
            })
        }
        return manifest
    }

    /// Every module is in one layer, and depends only downwards; a C library only from its owner.
    @Test func everyModuleDependsOnlyDownTheLayers() throws {
        let manifest = try Self.manifest()
        var place: [String: (layer: Int, position: Int)] = [:]
        for (layer, row) in Self.layers.enumerated() {
            for (position, module) in row.modules.enumerated() { place[module] = (layer, position) }
        }
        #expect(place.count == Self.layers.reduce(0) { $0 + $1.modules.count }, "a module is in two layers")
        var found: [String] = []
        for (module, dependencies) in manifest.dependencies.sorted(by: { $0.key < $1.key }) {
            guard let here = place[module] else {
                found.append("\(module) is in no layer: give it one in CodeRulesTests.layers (and CONTRIBUTING.md's table)")
                continue
            }
            for dependency in dependencies.sorted() {
                if manifest.systemLibraries.contains(dependency) {
                    if Self.cOwners[dependency] != module { found.append("\(module) -> \(dependency): that C library is \(Self.cOwners[dependency] ?? "nobody")'s") }
                    continue
                }
                let there = place[dependency]
                if let there, there.layer < here.layer || (there.layer == here.layer && there.position < here.position) { continue }
                found.append("\(module) (\(Self.layers[here.layer].name)) -> \(dependency) (\(there.map { Self.layers[$0.layer].name } ?? "no layer")): against the layers")
            }
        }
        #expect(found.isEmpty, "dependencies that cross the layers (CodeRulesTests.layers):\n\(found.joined(separator: "\n"))")
    }

    /// The graph's goals: what the values, the words and the HTTP plumbing link, and what a share
    /// server needs.
    @Test func noModuleReachesWhatItMustNot() throws {
        let manifest = try Self.manifest()
        var found: [String] = []
        for rule in Self.mustNotReach {
            for module in rule.modules {
                let reached = manifest.closure(of: module).intersection(rule.forbidden)
                if !reached.isEmpty { found.append("\(module) reaches \(reached.sorted().joined(separator: ", ")): \(rule.why)") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Package.swift names each dependency once, where it is needed: none that another already
    /// brings (a module imports what it reaches), none whose modules the module never imports.
    @Test func noDependencyIsImpliedOrUnused() throws {
        let manifest = try Self.manifest()
        let imports = try Self.imports(of: Set(manifest.dependencies.keys).union(manifest.systemLibraries))
        var found: [String] = []
        for (module, dependencies) in manifest.dependencies.sorted(by: { $0.key < $1.key }) {
            for dependency in dependencies.sorted() {
                let others = dependencies.subtracting([dependency])
                if let through = others.sorted().first(where: { manifest.closure(of: $0).contains(dependency) }) {
                    found.append("\(module) -> \(dependency): implied by \(module) -> \(through)")
                    continue
                }
                let elsewhere = others.reduce(others) { $0.union(manifest.closure(of: $1)) }
                let brought = manifest.closure(of: dependency).union([dependency]).subtracting(elsewhere)
                if imports[module, default: []].isDisjoint(with: brought) {
                    found.append("\(module) -> \(dependency): unused (\(module) imports none of \(brought.sorted().joined(separator: ", ")))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The package's modules each module's files import (`names`: the package's targets).
    static func imports(of names: Set<String>) throws -> [String: Set<String>] {
        let statement = #/^\s*(?:@\w+\s+)?(?:package\s+|internal\s+|public\s+)?import\s+(\w+)/#
        var imports: [String: Set<String>] = [:]
        for file in try swiftFiles() {
            let module = String(file.name.prefix { $0 != "/" })
            for line in file.lines {
                if let match = line.firstMatch(of: statement), names.contains(String(match.output.1)) {
                    imports[module, default: []].insert(String(match.output.1))
                }
            }
        }
        return imports
    }

    /// Each module imports, of this package's modules, only those it depends on (directly or
    /// through another), a C library only as its owner, and no edge imports the capture, media or
    /// store modules: the CLI and the kiosk reach the camera, the encoder and the store only
    /// through the subject modules (Shooting, Publishing, Library, Posting, Preflight).
    @Test func everyModuleImportsOnlyWhatItDependsOn() throws {
        let manifest = try Self.manifest()
        let ours = Set(manifest.dependencies.keys).union(manifest.systemLibraries)
        let edges = Set(Self.layers.last!.modules)
        let statement = #/^\s*(?:@\w+\s+)?(?:package\s+|internal\s+|public\s+)?import\s+(\w+)/#
        var found: [String] = []
        var checked = 0
        for file in try Self.swiftFiles() {
            let module = String(file.name.prefix { $0 != "/" })
            guard let dependencies = manifest.dependencies[module] else { continue }
            let reached = manifest.closure(of: module)
            for (index, line) in file.lines.enumerated() {
                guard let match = line.firstMatch(of: statement) else { continue }
                let imported = String(match.output.1)
                guard ours.contains(imported) else { continue }
                checked += 1
                let allowed = manifest.systemLibraries.contains(imported) ? dependencies.contains(imported) : reached.contains(imported)
                if !allowed { found.append("\(file.name):\(index + 1): \(module) imports \(imported), which it does not depend on") }
                if edges.contains(module), Self.throughSubjects.contains(imported) {
                    found.append("\(file.name):\(index + 1): \(module) imports \(imported): an edge goes through the subject modules")
                }
            }
        }
        #expect(checked > 200, "only \(checked) imports of the package's own modules checked")
        #expect(found.isEmpty, "imports the graph does not give (add the dependency in Package.swift, or go through a subject module):\n\(found.joined(separator: "\n"))")
    }

    /// The graph as docs/architecture.md draws it (a Mermaid flowchart, the layers top down, each
    /// arrow a dependency in Package.swift), with the counts.
    static func drawing(_ manifest: Manifest) -> String {
        var lines = ["```mermaid", "flowchart TB"]
        for (index, layer) in Self.layers.enumerated().reversed() {
            lines.append("  subgraph layer\(index)[\"\(layer.name)\"]")
            lines.append("    direction LR")
            lines += layer.modules.filter { manifest.dependencies[$0] != nil }.map { "    \($0)" }
            lines.append("  end")
        }
        lines.append("  subgraph clibraries[\"system-library targets (C headers)\"]")
        lines.append("    direction LR")
        lines += manifest.systemLibraries.sorted().map { "    \($0)" }
        lines.append("  end")
        let edges = manifest.edges
        lines += edges.map { "  \($0.from) --> \($0.to)" }
        let owned = manifest.dependencies.sorted { $0.key < $1.key }.flatMap { module, dependencies in
            dependencies.filter { manifest.systemLibraries.contains($0) }.sorted().map { "  \(module) -.-> \($0)" }
        }
        lines += owned
        lines.append("```")
        lines.append("")
        lines.append("\(manifest.dependencies.count) modules; \(edges.count) dependencies between them, none implied by another, "
                     + "and \(owned.count) on C headers, each from the one module that owns them.")
        return lines.joined(separator: "\n")
    }

    static let drawingStart = "<!-- The module graph: generated from Package.swift by CodeRulesTests (RECORDER_UPDATE_SNAPSHOTS=1 writes it). -->"
    static let drawingEnd = "<!-- End of the module graph. -->"

    /// docs/architecture.md draws the graph Package.swift gives, and CONTRIBUTING.md's layout table
    /// lists the layers above.
    @Test func theDocsShowThisGraph() throws {
        let manifest = try Self.manifest()
        let path = Self.root + "/docs/architecture.md"
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(page.range(of: Self.drawingStart), "docs/architecture.md has no \(Self.drawingStart)")
        let end = try #require(page.range(of: Self.drawingEnd, range: start.upperBound..<page.endIndex), "docs/architecture.md has no \(Self.drawingEnd)")
        let drawn = String(page[start.upperBound..<end.lowerBound]).trimmingCharacters(in: .newlines)
        let drawing = Self.drawing(manifest)
        if ProcessInfo.processInfo.environment["RECORDER_UPDATE_SNAPSHOTS"] == "1" {
            try (String(page[..<start.upperBound]) + "\n" + drawing + "\n" + String(page[end.lowerBound...])).write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            #expect(drawn == drawing, "docs/architecture.md's module graph is not Package.swift's: RECORDER_UPDATE_SNAPSHOTS=1 swift test --filter CodeRulesTests rewrites it (then read the diff)")
        }

        // | layer | modules | what they hold |: the modules named in backquotes, by layer.
        let contributing = try String(contentsOfFile: Self.root + "/CONTRIBUTING.md", encoding: .utf8)
        let names = Set(Self.layers.flatMap(\.modules))
        var table: [String: Set<String>] = [:]
        for line in contributing.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, Self.layers.contains(where: { $0.name == cells[1] }) else { continue }
            table[cells[1]] = Set(cells[2].matches(of: #/`(\w+)`/#).map { String($0.output.1) }.filter(names.contains))
        }
        for layer in Self.layers {
            #expect(table[layer.name] == Set(layer.modules), "CONTRIBUTING.md's layout table, \(layer.name): \(table[layer.name]?.sorted() ?? []), not \(layer.modules)")
        }
    }

    /// Every module stays small enough to hold in one's head (issue 41): RecorderCore was split
    /// by subject into Settings, Shooting, Publishing and Library, and KioskService into
    /// KioskWords, KioskHTTP, KioskState and KioskService.
    @Test func noModuleIsOver4000Lines() throws {
        let files = try Self.swiftFiles()
        let modules = Dictionary(grouping: files) { String($0.name.prefix { $0 != "/" }) }
        // Guards the check against passing because it saw no module, or not the split ones.
        for module in ["Settings", "Shooting", "Publishing", "Library", "KioskWords", "KioskHTTP", "ShareServer", "KioskState", "KioskService", "RecorderCLI"] {
            #expect(modules[module] != nil, "no sources for \(module)")
        }
        for (module, sources) in modules.sorted(by: { $0.key < $1.key }) {
            let lines = sources.reduce(0) { $0 + $1.lines.count }
            #expect(lines <= 4000, "\(module) has \(lines) lines: split it by subject")
        }
    }

    /// Every file stays short enough to read at one sitting (issue 51): CameraManager,
    /// RecorderConfiguration and AlsaCaptureSource were split by subject into `Type+Topic.swift`.
    @Test func noFileIsOver400Lines() throws {
        let files = try Self.swiftFiles()
        // Guards the check against passing because it read nothing, or not the split files.
        for name in ["Shooting/CameraManager.swift", "Settings/RecorderConfiguration.swift", "AudioCapture/AlsaCaptureSource.swift"] {
            #expect(files.contains { $0.name == name }, "no \(name) under Sources")
        }
        // `components(separatedBy:)` counts the empty piece after the last newline: `wc -l`'s figure.
        let long = files.map { ($0.name, $0.lines.count - ($0.lines.last == "" ? 1 : 0)) }.filter { $0.1 > 400 }
        #expect(long.isEmpty, "over 400 lines, split by subject: \(long.map { "\($0.0) (\($0.1))" })")
    }

    /// The kiosk's files, the ones most often changed, are held shorter (CONTRIBUTING.md): 300
    /// lines in the Kiosk* modules.
    @Test func noKioskFileIsOver300Lines() throws {
        let files = try Self.swiftFiles().filter { $0.name.hasPrefix("Kiosk") }
        // Guards the check against passing because it read no kiosk module.
        for module in ["KioskWords", "KioskHTTP", "KioskState", "KioskService"] {
            #expect(files.contains { $0.name.hasPrefix(module + "/") }, "no sources for \(module)")
        }
        let long = files.map { ($0.name, $0.lines.count - ($0.lines.last == "" ? 1 : 0)) }.filter { $0.1 > 300 }
        #expect(long.isEmpty, "kiosk files over 300 lines, split by subject: \(long.map { "\($0.0) (\($0.1))" })")
    }
}
