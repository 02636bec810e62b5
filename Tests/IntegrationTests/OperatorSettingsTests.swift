import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The organiser's settings (issue 49) as the commands meet them: one validator, so `recorder
/// config check`, `recorder kiosk` at its start and `recorder doctor` refuse the same settings in
/// the same words; the operator page's layer in the kiosk's state directory, which every command
/// reads above the file and below the environment and `--set`; the kiosk restarting in place to
/// take what the page saved; the page's test mail against a real SMTP server.
@Suite(.serialized) struct OperatorSettingsTests {
    static let token = "Xk3q9Lw2ZtR8vB0aYcN1pE4sHfJ6uDmqab"

    /// A sandbox whose configuration file holds `text` (and small shots).
    static func sandbox(_ text: String) throws -> (PostSandbox, String) {
        var box = try PostSandbox()
        let path = "\(box.root)/config/recorder.conf"
        try ("shoot.size = 320x240\nshoot.fps = 15\n" + text).write(toFile: path, atomically: true, encoding: .utf8)
        box.extraEnvironment["RECORDER_CONFIG"] = path
        return (box, path)
    }

    /// The kiosk's state directory in `box` (XDG_STATE_HOME/recorder/kiosk).
    static func stateDirectory(_ box: PostSandbox) -> String { "\(box.root)/state/recorder/kiosk" }

    /// Settings the kiosk refuses at its start and the catalogue's rules alone let by.
    static func refused(_ root: String) -> [(String, String)] {
        [("a Wi-Fi password too short", "kiosk.wifi_ssid = Booth\nkiosk.wifi_password = short\nshare.base_url = http://10.42.0.1/s/{token}\n"),
         ("a share link without {token} beside the booth's Wi-Fi",
          "kiosk.wifi_ssid = Booth\nkiosk.wifi_password = long enough\nshare.base_url = https://cdn.example.com/{key}\n"),
         ("a consent text that is not there", "kiosk.consent = \(root)/no-such-consent.txt\n"),
         ("a state hook that is not a full path", "kiosk.on_state = lamp.sh\n"),
         ("a mail server and no sender", "mail.smtp_url = smtp://127.0.0.1:2525\n")]
    }

    /// `recorder kiosk` in `box`, which must stop by itself within a minute: its status and what it said.
    static func kioskStops(_ box: PostSandbox) throws -> Tools.Output {
        let port = try S3Fixture.listenPort()
        let running = try box.start(["kiosk", "--device", "testsrc", "--listen", "127.0.0.1:\(port)"])
        let end = Date().addingTimeInterval(60)
        while running.process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.1) }
        if running.process.isRunning {
            running.process.terminate()
            Issue.record("the kiosk started with settings it should refuse")
        }
        return try Tools.finish(running)
    }

    @Test(.timeLimit(.minutes(10))) func configCheckTheKioskAndDoctorRefuseTheSameSettingsInTheSameWords() throws {
        let skipped = "camera,microphone,trigger,disk,clock,store,outbox,tokens,share-links,tls,wifi,service"
        for (name, text) in Self.refused(NSTemporaryDirectory()) {
            let (box, _) = try Self.sandbox(text)
            defer { box.remove() }
            let check = try box.recorder(["config", "check"])
            let said = check.stderr.split(separator: "\n").map(String.init)
            #expect(check.status == 78 && said.count == 1, "\(name): config check said \(check.stdout)\(check.stderr)")
            let kiosk = try Self.kioskStops(box)
            // (the CLI's "recorder: error: " before the same words)
            let kioskSaid = kiosk.stderr.split(separator: "\n").map { String($0.trimmingPrefix("recorder: error: ")) }
            #expect(kiosk.status == 78 && kioskSaid == said, "\(name): the kiosk said \(kiosk.stderr)")
            let doctor = try box.recorder(["doctor", "--json", "--skip", skipped])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any], "\(name): \(doctor.stderr)")
            let configuration = (document["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "configuration" }
            let finding = (configuration?["finding"] as? [String: Any])?["configurationRefused"] as? [String: Any]
            #expect(doctor.status == 1 && configuration?["status"] as? String == "error" && [finding?["problem"] as? String] == said,
                    "\(name): doctor found \(String(describing: configuration))")
        }
        // What all three accept, the kiosk starts with.
        let (box, _) = try Self.sandbox("kiosk.wifi_ssid = Booth\nkiosk.wifi_password = long enough\nshare.base_url = http://10.42.0.1/s/{token}\n")
        defer { box.remove() }
        let fine = try box.recorder(["config", "check"])
        #expect(fine.status == 0 && fine.stdout == "ok\n", "\(fine.stderr)")
    }

    /// "operator page, 2026-11-29 14:02" for `changedAt`, in this machine's zone (Foundation's formatter).
    static func origin(_ changedAt: String) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = .current
        return "operator page, " + formatter.string(from: ISO8601DateFormatter().date(from: changedAt)!)
    }

    /// Writes the operator's layer into `box`'s kiosk state directory, as the page writes it.
    static func layer(_ box: PostSandbox, _ values: [String: String], at changedAt: String = "2026-11-29T13:02:00Z") throws {
        try FileManager.default.createDirectory(atPath: stateDirectory(box), withIntermediateDirectories: true)
        let settings = values.mapValues { ["value": $0, "changedAt": changedAt] }
        try JSONSerialization.data(withJSONObject: ["settings": settings]).write(to: URL(fileURLWithPath: stateDirectory(box) + "/operator-settings.json"))
    }

    @Test func everyCommandReadsThePagesSettingsAboveTheFileAndBelowTheEnvironment() throws {
        var (box, path) = try Self.sandbox("kiosk.seconds = 10\nkiosk.countdown_seconds = 4\nevent.name = From the file\n")
        defer { box.remove() }
        try Self.layer(box, ["kiosk.seconds": "20", "kiosk.countdown_seconds": "5", "event.name": "Anna & Ben", "retention.days": "30"])
        box.extraEnvironment["RECORDER_KIOSK_COUNTDOWN_SECONDS"] = "7"
        let shown = try box.recorder(["config", "show", "--json", "--set", "retention.days=2"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: [String: String]])
        let page = Self.origin("2026-11-29T13:02:00Z")
        #expect(json["kiosk.seconds"] == ["value": "20", "origin": page] && json["event.name"] == ["value": "Anna & Ben", "origin": page])
        #expect(json["kiosk.countdown_seconds"] == ["value": "7", "origin": "RECORDER_KIOSK_COUNTDOWN_SECONDS"])
        #expect(json["retention.days"] == ["value": "2", "origin": "flag"])
        #expect(json["kiosk.listen"]?["origin"] == "default" && json["shoot.size"]?["origin"] == "\(path):1")
        // A value the page may not set, in its layer: refused by every command, naming where it is.
        try Self.layer(box, ["kiosk.listen": "0.0.0.0:80"])
        let check = try box.recorder(["config", "check"])
        #expect(check.status == 78 && check.stderr.hasPrefix(page + ": "), "\(check.stderr)")
        let post = try box.recorder(["feed", "--json"])
        let refusal = try jsonObject(post.stdout)
        #expect(post.status == 78 && refusal["failure"] as? String == "ConfigurationProblem.notAnOperatorKey", "\(post.stdout)")
        // A layer that is not one: named, never taken for nothing.
        try "{ not json".write(toFile: Self.stateDirectory(box) + "/operator-settings.json", atomically: true, encoding: .utf8)
        let damaged = try box.recorder(["config", "show", "--json"])
        let damage = try jsonObject(damaged.stdout)
        #expect(damaged.status == 78 && damage["failure"] as? String == "ConfigurationProblem.operatorSettingsDamaged", "\(damaged.stdout)")
    }

    /// One request with curl, as the operator: the status and the JSON object answered.
    static func request(_ method: String, _ url: String, json: [String: Any]? = nil) -> (status: Int, answer: [String: Any]) {
        var arguments = ["-s", "--max-time", "60", "-X", method, "-H", "Authorization: Bearer \(token)", "-w", "\n%{http_code}", url]
        if let json, let data = try? JSONSerialization.data(withJSONObject: json) {
            arguments += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)]
        }
        guard let output = try? Tools.run("curl", arguments) else { return (0, [:]) }
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)) as? [String: Any]) ?? [:])
    }

    /// `recorder kiosk` on the test pattern with the operator's token, once it answers; what it says
    /// goes to a file in the sandbox (`kiosk.log`: a pipe nobody reads would stop it once full).
    static func kiosk(_ box: PostSandbox) throws -> (Process, String) {
        var box = box
        box.extraEnvironment["RECORDER_KIOSK_TOKEN"] = token
        let port = try S3Fixture.listenPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.recorderBinary())
        process.arguments = ["kiosk", "--device", "testsrc", "--listen", "127.0.0.1:\(port)"]
        process.environment = ProcessInfo.processInfo.environment.merging(box.environment) { $1 }
        FileManager.default.createFile(atPath: "\(box.root)/kiosk.log", contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(box.root)/kiosk.log"))
        (process.standardOutput, process.standardError, process.standardInput) = (log, log, FileHandle.nullDevice)
        try process.run()
        let base = "http://127.0.0.1:\(port)"
        let up = KioskMailCrashTests.within(60) { !process.isRunning || request("GET", base + "/api/status").status == 200 }
        if !up || !process.isRunning {
            stop(process)
            let said = (try? String(contentsOfFile: "\(box.root)/kiosk.log", encoding: .utf8)) ?? ""
            try #require(Bool(false), "the kiosk did not answer: \(said.suffix(1500))")
        }
        return (process, base)
    }

    /// SIGTERM, as systemd stops it; its exit status.
    @discardableResult
    static func stop(_ process: Process) -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(.timeLimit(.minutes(5))) func theKioskRestartsInPlaceWithWhatThePageSaved() throws {
        let (box, _) = try Self.sandbox("retry.max_seconds = 1\n")
        defer { box.remove() }
        let (kiosk, base) = try Self.kiosk(box)
        defer { Self.stop(kiosk) }
        let before = Self.request("GET", base + "/api/status").answer
        #expect(before["shotSeconds"] as? Double == 15)
        let saved = Self.request("PUT", base + "/api/admin/settings", json: ["changes": ["kiosk.seconds": 3, "event.name": "Anna & Ben"]])
        #expect(saved.status == 200 && saved.answer["restartNeeded"] as? Bool == true, "\(saved)")
        // Saved, not taken yet: the running kiosk keeps its settings until it restarts.
        #expect(Self.request("GET", base + "/api/status").answer["shotSeconds"] as? Double == 15)
        let pid = kiosk.processIdentifier
        #expect(Self.request("POST", base + "/api/admin/restart", json: [:]).status == 202)
        let run = before["run"] as? String
        let restarted = KioskMailCrashTests.within(60) {
            let status = Self.request("GET", base + "/api/status").answer
            return status["run"] as? String != nil && status["run"] as? String != run
        }
        #expect(restarted, "the kiosk did not come back")
        // The same process (systemd's main pid), started again with the page's settings.
        #expect(kiosk.isRunning && kiosk.processIdentifier == pid)
        #expect(Self.request("GET", base + "/api/status").answer["shotSeconds"] as? Double == 3)
        let settings = Self.request("GET", base + "/api/admin/settings").answer
        #expect((settings["pending"] as? [String]) == [] && (settings["restart"] as? [String: Any])?["requested"] as? Bool == false)
        #expect(Self.stop(kiosk) == 0, "\(((try? String(contentsOfFile: "\(box.root)/kiosk.log", encoding: .utf8)) ?? "").suffix(1500))")
    }

    @Test(.timeLimit(.minutes(5))) func theTestMailSaysWhatTheServerSaidAndSavesNothing() throws {
        let smtp = try SMTPFixture(tls: "none", auth: false)
        let (box, _) = try Self.sandbox("")
        defer { box.remove() }
        let (kiosk, base) = try Self.kiosk(box)
        defer { Self.stop(kiosk) }
        let mail: [String: Any] = ["mail.smtp_url": "smtp://127.0.0.1:\(smtp.port)", "mail.insecure": true,
                                   "mail.from": "Photo booth <booth@photo.example>", "event.name": "Anna & Ben"]
        let sent = Self.request("POST", base + "/api/admin/mail/test", json: ["to": "organiser@example.org", "changes": mail])
        let reply = sent.answer["reply"] as? [String: Any]
        #expect(sent.status == 200 && sent.answer["sent"] as? Bool == true && reply?["code"] as? Int == 250, "\(sent)")
        let received = try smtp.received()
        #expect(received.count == 1 && received.first?.envelope["rcpt_tos"] as? [String] == ["organiser@example.org"])
        let parsed = try SMTPFixture.parse(try #require(received.first?.path))
        let headers = parsed["headers"] as? [String: [String]]
        #expect(headers?["From"] == ["Photo booth <booth@photo.example>"] && headers?["To"] == ["organiser@example.org"], "\(parsed)")
        // Tried, not saved.
        #expect(!FileManager.default.fileExists(atPath: Self.stateDirectory(box) + "/operator-settings.json"))
        // The server refuses the address: not sent, with its reply.
        try smtp.fault(["mode": "refuse", "at": "rcpt", "code": 550, "text": "5.1.1 no such user"])
        let refused = Self.request("POST", base + "/api/admin/mail/test", json: ["to": "nobody@example.org", "changes": mail])
        let refusal = refused.answer["reply"] as? [String: Any]
        #expect(refused.status == 200 && refused.answer["sent"] as? Bool == false && refusal?["code"] as? Int == 550, "\(refused)")
        // Settings that cannot work are the validator's findings, not a mail tried.
        let broken = Self.request("POST", base + "/api/admin/mail/test", json: ["to": "a@example.org", "changes": ["mail.smtp_url": "smtp://127.0.0.1:\(smtp.port)"]])
        #expect(broken.status == 422 && (broken.answer["findings"] as? [[String: Any]])?.first?["keys"] as? [String] != nil, "\(broken)")
    }
}
