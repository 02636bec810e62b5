import Foundation
import KioskWords
import Settings
import Testing
#if canImport(Glibc)
import Glibc
#endif
import Failures

/// `recorder kiosk` as a process, as systemd runs it: notify datagrams, the watchdog, SIGTERM.
@Suite(.serialized) struct KioskProcessTests {
    static func binary() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["RECORDER_BIN"] { return bin }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("recorder").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "build recorder first (swift build) or set RECORDER_BIN"])
    }

    /// The failures a kiosk process reported on standard error (its `recorder: error: ` lines).
    static func reported(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { $0.hasPrefix("recorder: error: ") ? String($0.dropFirst("recorder: error: ".count)) : nil }
    }

    /// A kiosk problem's words: the case and its data, worded as EdgeWordsTests pins them (the
    /// kiosk's start-up problems name settings, so the command line words them as the operator's page does).
    static func words(_ problem: KioskProblem) -> String { OperatorWords.text(.kiosk(problem)) }

    /// A free loopback port for a kiosk process to listen on. Taken below the kernel's ephemeral
    /// range (32768 and up): a port the kernel hands out is free again once released, and any
    /// outgoing connection of the suites running alongside may take it before the kiosk binds it.
    static func freePort() -> Int {
        for _ in 0..<200 {
            let candidate = Int.random(in: 23_000...29_999)
            if isFree(candidate) { return candidate }
        }
        return 0
    }

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// `recorder kiosk ARGUMENTS` started as a process, with no configuration file, token or journal
    /// from this environment (plus `extra`); its standard error goes to the returned pipe.
    static func startKiosk(_ arguments: [String], extra: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = ["kiosk"] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["RECORDER_CONFIG", "RECORDER_KIOSK_TOKEN", "JOURNAL_STREAM"] { environment[key] = nil }
        process.environment = environment.merging(extra) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        return (process, errors)
    }

    /// A kiosk on the test pattern with its own workspace, outbox and store under `dir`.
    static func kioskArguments(port: Int, dir: String) -> [String] {
        ["--device", "testsrc", "--listen", "127.0.0.1:\(port)", "--workspace", dir + "/ws",
         "--outbox", dir + "/outbox", "--store-dir", dir + "/store", "--create"]
    }

    static func request(_ method: String, _ url: String, json: String? = nil, headers: [String] = []) -> (Int, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        var arguments = ["-s", "--max-time", "10", "-X", method, "-w", "\n%{http_code}", url] + headers.flatMap { ["-H", $0] }
        if let json { arguments += ["-H", "Content-Type: application/json", "-d", json] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// The operator page's restart (issue 49) as systemd sees it: RELOADING, with a watchdog time
    /// a start fits in, then READY from the same process with the unit's own watchdog time again,
    /// the new run with the settings the page saved; SIGTERM then stops it as ever.
    @Test(.timeLimit(.minutes(5))) func theOperatorsRestartIsReloadingThenReadyFromTheSameProcess() async throws {
        let notify = try NotifySocket()
        let dir = NSTemporaryDirectory() + "recorder-restart-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let port = Self.freePort(), base = "http://127.0.0.1:\(port)"
        let auth = "Authorization: Bearer \(AdminAPITests.token)"
        let (process, _) = try Self.startKiosk(Self.kioskArguments(port: port, dir: dir),
                                               extra: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "20000000", "HOME": dir,
                                                       "XDG_STATE_HOME": dir + "/state", "RECORDER_KIOSK_TOKEN": AdminAPITests.token])
        defer { if process.isRunning { process.terminate() } }
        let first = try #require(notify.first(prefix: "READY=1", within: 60), "no READY=1 within a minute")
        #expect(first.hasSuffix("\nWATCHDOG_USEC=20000000"), "\(first)")
        let pid = process.processIdentifier
        #expect(Self.request("PUT", base + "/api/admin/settings", json: #"{"changes": {"kiosk.countdown_seconds": 1}}"#, headers: [auth]).0 == 200)
        #expect(Self.request("POST", base + "/api/admin/restart", json: "{}", headers: [auth]).0 == 202)
        let reloading = try #require(notify.first(prefix: "RELOADING=1", within: 60), "no RELOADING=1 within a minute")
        #expect(reloading.hasSuffix("\nWATCHDOG_USEC=90000000"), "\(reloading)")
        let ready = try #require(notify.first(prefix: "READY=1", within: 60), "no READY=1 after the restart within a minute")
        #expect(ready.hasSuffix("\nWATCHDOG_USEC=20000000"), "\(ready)")
        #expect(process.isRunning && process.processIdentifier == pid)
        let (_, text) = Self.request("GET", base + "/api/status", headers: [auth])
        let status = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(status["countdownSeconds"] as? Int == 1, "\(text.prefix(300))")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(.timeLimit(.minutes(10))) func notifyWatchdogAndSigtermDuringAShot() async throws {
        let dir = NSTemporaryDirectory() + "recorder-kproc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notify = try NotifySocket()
        let port = Self.freePort()
        // A small, slow picture: what is tested is the process's signals and notifications, and a
        // 720p30 encode competing with the other suites' encoders took 77 s here and over 120 s on
        // CI's machine to reach 1.5 s.
        let (process, errors) = try Self.startKiosk(Self.kioskArguments(port: port, dir: dir) + ["--countdown", "0", "--set", "shoot.size=320x240", "--set", "shoot.fps=15"],
                                                    extra: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "1000000"])
        defer { if process.isRunning { process.terminate() } }

        // READY=1 only once the port answers.
        let ready = notify.first(prefix: "READY=1", within: 60)
        let readyMessage = try #require(ready, "no READY=1 within a minute")
        #expect(readyMessage.contains("STATUS=listening on 127.0.0.1:\(port); idle"))
        #expect(Self.request("GET", "http://127.0.0.1:\(port)/healthz").0 == 200)

        // WATCHDOG=1 every half second while alive...
        var pings = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 3, let message = notify.receive() {
            if message == "WATCHDOG=1" { pings += 1 }
        }
        #expect(pings >= 2, "\(pings) watchdog pings in 3 s")

        // ...and none while the process is stopped (systemd would restart it).
        kill(process.processIdentifier, SIGSTOP)
        while notify.receive(timeout: 0.2) != nil {}
        let silent = notify.receive(timeout: 2)
        kill(process.processIdentifier, SIGCONT)
        #expect(silent == nil, "a stopped process sent \(silent ?? "")")

        // A manager that reads nothing for a while (its queue holds 10 datagrams: 5 s of pings here)
        // must not stop the kiosk: before, its threads blocked in sendto and nothing answered.
        try await Task.sleep(for: .seconds(8))
        let (unread, _) = Self.request("GET", "http://127.0.0.1:\(port)/healthz")
        #expect(unread == 200, "the kiosk stopped answering while its notifications went unread (\(unread))")

        // SIGTERM during a shot: STOPPING=1, the recorded part finished and kept, exit 0.
        let (code, _) = Self.request("POST", "http://127.0.0.1:\(port)/api/shoot", json: #"{"seconds": 60}"#)
        #expect(code == 202)
        // (a generous deadline: on a loaded machine, with other suites encoding beside it, a shot
        // has taken over 30 s to open, and over 120 s to record 1.5 s at 720p)
        let end = Date().addingTimeInterval(240)
        // Past the 1 s a kept shot must last (a shorter one is discarded, the previous kept).
        func elapsed() -> Double {
            let text = Self.request("GET", "http://127.0.0.1:\(port)/api/status").1
            guard let range = text.range(of: #""elapsedSeconds":[0-9.]+"#, options: .regularExpression) else { return 0 }
            return Double(text[range].split(separator: ":").last ?? "") ?? 0
        }
        while Date() < end, elapsed() < 1.5 {
            try await Task.sleep(for: .milliseconds(100))
        }
        if elapsed() < 1.5 {
            // What CI needs to tell a machine too loaded to record from a kiosk that went wrong.
            let status = Self.request("GET", "http://127.0.0.1:\(port)/api/status")
            process.terminate()
            let gone = Date().addingTimeInterval(30)
            while process.isRunning && Date() < gone { try await Task.sleep(for: .milliseconds(100)) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            Issue.record("the shot never recorded 1.5 s within 240 s; status \(status.0): \(status.1.prefix(600)); the kiosk's log ends: \(log.suffix(2000))")
            return
        }
        kill(process.processIdentifier, SIGTERM)
        // Watchdog pings keep coming meanwhile: look past them, for a minute at most.
        let stopping = notify.first(prefix: "STOPPING=1", within: 60)
        #expect(stopping?.contains("finishing the shot") == true, "\(stopping ?? "no STOPPING=1")")
        let exited = Date().addingTimeInterval(45)
        while process.isRunning && Date() < exited { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0, "\(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
        let shotJSON = try #require(FileManager.default.contents(atPath: dir + "/ws/current/shot.json"))
        let shot = try #require(JSONSerialization.jsonObject(with: shotJSON) as? [String: Any])
        #expect(shot["endedEarly"] as? String == "stopped")
        // An independent reader plays what was kept.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", dir + "/ws/current/video.mp4"]
        let out = Pipe()
        probe.standardOutput = out
        try probe.run()
        probe.waitUntilExit()
        let duration = Double(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(duration >= 1, "kept \(duration) s")
    }

    @Test func refusesToListenBeyondLoopbackWithoutAToken() throws {
        let port = Self.freePort()
        let (process, errors) = try Self.startKiosk(["--listen", "0.0.0.0:\(port)", "--device", "testsrc"])
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 78)
        #expect(Self.reported(text) == [Self.words(.exposedWithoutToken(listen: "0.0.0.0:\(port)"))], "\(text)")
    }

    /// DNS rebinding: a page on a name that resolves to this machine sends the kiosk its own Host
    /// and a matching Origin. Only the names the kiosk answers to get anything, on every route.
    @Test func onlyItsOwnHostNamesReachTheKiosk() async throws {
        let dir = NSTemporaryDirectory() + "recorder-khost-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let port = Self.freePort()
        let (process, errors) = try Self.startKiosk(Self.kioskArguments(port: port, dir: dir) + ["--countdown", "0", "--set", "kiosk.hosts=booth.example"])
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let base = "http://127.0.0.1:\(port)"
        let end = Date().addingTimeInterval(60)
        while Date() < end, Self.request("GET", base + "/healthz").0 != 200 { try await Task.sleep(for: .milliseconds(200)) }
        try #require(Self.request("GET", base + "/healthz").0 == 200, "the kiosk did not start")

        let evil = ["Host: evil.example:\(port)", "Origin: http://evil.example:\(port)"]
        let shoot = Self.request("POST", base + "/api/shoot", json: "{}", headers: evil)
        #expect(shoot.0 == 421, "\(shoot)")
        let refusal = try? JSONSerialization.jsonObject(with: Data(shoot.1.utf8)) as? [String: Any]
        #expect(refusal?["kind"] as? String == "misdirected" && refusal?["status"] as? Int == 421, "\(shoot.1)")
        for path in ["/api/status", "/api/feed", "/", "/metrics", "/healthz", "/api/events"] {
            #expect(Self.request("GET", base + path, headers: evil).0 == 421, "\(path)")
        }
        let status = try? JSONSerialization.jsonObject(with: Data(Self.request("GET", base + "/api/status").1.utf8)) as? [String: Any]
        #expect(status?["state"] as? String == "idle", "the refused shoot must not have started: \(status ?? [:])")
        for good in ["127.0.0.1:\(port)", "localhost:\(port)", "booth.example:\(port)", "BOOTH.example.:\(port)", "[::1]:\(port)"] {
            #expect(Self.request("GET", base + "/api/status", headers: ["Host: \(good)"]).0 == 200, "\(good)")
        }
        // The kiosk's own page, through a name it answers to, still drives it.
        let own = Self.request("POST", base + "/api/stop", json: "{}", headers: ["Host: booth.example:\(port)", "Origin: http://booth.example:\(port)"])
        #expect(own.0 != 421 && own.0 != 403, "\(own)")

        // On a terminal (no JOURNAL_STREAM) the log has no journal priority prefixes.
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("ready: http://127.0.0.1:\(port)/"), "\(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("<") }, "\(log)")
    }

    /// A port already in use: no "ready", one plain sentence naming the port, exit 69 (it said
    /// "ready" first, then NIO's `bind(descriptor:ptr:bytes:)`).
    @Test func aPortInUseIsOnePlainErrorAndNeverReady() throws {
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(taken, $0, length) == 0 && listen(taken, 1) == 0 && getsockname(taken, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let dir = NSTemporaryDirectory() + "recorder-kport-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (process, errors) = try Self.startKiosk(Self.kioskArguments(port: port, dir: dir))
        // It must give up at once; a kiosk that serves anyway is stopped after a minute, not waited on forever.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(100_000) }
        if process.isRunning { process.terminate() }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 69, "\(text)")
        // The port taken, as its case (never NIO's bind error), and nothing else failed.
        #expect(Self.reported(text) == [Self.words(.addressInUse(address: "127.0.0.1:\(port)", port: port))], "\(text)")
        #expect(!text.contains("ready:"), "\(text)")
    }

    /// kiosk.proxy_socket: the listener nginx alone uses, made at start for nginx's user to connect
    /// to (0666); one the kiosk cannot make stops it with the setting named (78), never ready.
    @Test func theProxySocketIsMadeForTheProxyOrNamedWhenItCannotBe() async throws {
        let dir = NSTemporaryDirectory() + "recorder-kproxy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/proxy.sock"
        let port = Self.freePort()
        let (process, _) = try Self.startKiosk(Self.kioskArguments(port: port, dir: dir), extra: ["RECORDER_KIOSK_PROXY_SOCKET": socketPath])
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let end = Date().addingTimeInterval(60)
        while Date() < end, Self.request("GET", "http://127.0.0.1:\(port)/healthz").0 != 200 { try await Task.sleep(for: .milliseconds(200)) }
        let attributes = try FileManager.default.attributesOfItem(atPath: socketPath)
        #expect(attributes[.type] as? FileAttributeType == .typeSocket && attributes[.posixPermissions] as? Int == 0o666, "\(attributes)")
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", socketPath, "http://localhost/healthz"]
        let pipe = Pipe()
        curl.standardOutput = pipe
        try curl.run()
        let code = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        #expect(code == "200", "through the proxy's socket: \(code)")

        let missing = dir + "/no-such-directory/proxy.sock"
        let (refused, errors) = try Self.startKiosk(Self.kioskArguments(port: Self.freePort(), dir: dir + "/second"),
                                                    extra: ["RECORDER_KIOSK_PROXY_SOCKET": missing])
        let deadline = Date().addingTimeInterval(60)
        while refused.isRunning && Date() < deadline { usleep(100_000) }
        if refused.isRunning { refused.terminate() }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 78, "\(text)")
        #expect(Self.reported(text).contains(Self.words(.proxySocketFailed(path: missing, reason: "No such file or directory"))), "\(text)")
        #expect(!text.contains("ready:"), "\(text)")
    }
}
