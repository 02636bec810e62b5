import Foundation
import Testing

/// `recorder doctor` as a person or a script runs it: the exit statuses (0 ready, 1 not, 64 a bad
/// option, 78 a configuration that cannot be read), `--json` as python reads it, and the table.
@Suite struct DoctorCommandTests {
    /// A booth whose configuration has nothing that stops an event (no camera or microphone on
    /// this machine, so those two are left out): a local store, both tokens in files as the package
    /// makes them, share links to the booth's address on the guests' network.
    func readyBox() throws -> PostSandbox {
        var box = try PostSandbox()
        for (name, token) in [("kiosk-token", "Xk3q9Lw2ZtR8vB0aYcN1pE4sHfJ6uDmqab7Tz0Pq"), ("kiosk-booth-token", "Qm2Z8xT4bN7cR1vL5kH9pW3sD6fJ0gYaE8uI2oPw")] {
            let path = "\(box.root)/config/\(name)"
            try (token + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
        let config = "\(box.root)/config/recorder.conf"
        try """
            kiosk.token_file = \(box.root)/config/kiosk-token
            kiosk.booth_token_file = \(box.root)/config/kiosk-booth-token
            share.base_url = http://192.168.1.20/s/{token}
            # 50 kbit/s: 22.5 MB an hour, so any test machine's disk holds the event
            shoot.bitrate = 50
            """.write(toFile: config, atomically: true, encoding: .utf8)
        box.extraEnvironment["RECORDER_CONFIG"] = config
        return box
    }

    /// What python's json module reads of `--json`: "ready errors warnings" and, per check,
    /// "id status finding-case".
    func pythonReads(_ json: String, in box: PostSandbox) throws -> [String] {
        let script = """
            import json, sys
            d = json.load(open(sys.argv[1]))
            print(d["ready"], d["errors"], d["warnings"])
            for c in d["checks"]:
                (case, data), = c["finding"].items()
                assert isinstance(data, dict) and c["title"] and c["what"], c
                print(c["id"], c["status"], case, json.dumps(data, sort_keys=True))
            """
        let path = "\(box.root)/doctor.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let read = try Tools.run("python3", ["-c", script, path])
        try #require(read.status == 0, "python3 could not read it: \(read.stderr)\n\(json)")
        return read.stdout.split(separator: "\n").map(String.init)
    }

    @Test func readyExitsZeroAndPythonReadsEveryCheck() throws {
        let box = try readyBox()
        defer { box.remove() }
        let result = try box.recorder(["doctor", "--json", "--skip", "camera,microphone", "--system-dir", "\(box.root)/etc"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1, "one JSON document on one line")
        // (systemctl's and timedatectl's complaints, with no systemd to ask, are not the doctor's to print)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = try pythonReads(result.stdout, in: box)
        #expect(lines.first?.hasPrefix("True 0 ") == true, "\(lines)")
        let checks = Dictionary(uniqueKeysWithValues: lines.dropFirst().map { line -> (String, [String]) in
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            return (parts[0], Array(parts.dropFirst()))
        })
        #expect(Set(checks.keys) == ["configuration", "trigger", "disk", "clock", "store", "outbox", "tokens", "share-links", "tls", "wifi", "service"],
                "\(checks.keys.sorted())")
        #expect(checks["store"]?.prefix(2) == ["ok", "storeRoundTrip"])
        #expect(checks["tokens"]?.prefix(2) == ["ok", "tokens"])
        #expect(checks["share-links"]?.prefix(2) == ["ok", "shareTemplate"])
        #expect(checks["configuration"]?.prefix(2) == ["ok", "configurationAccepted"])
        #expect(checks["tls"]?.prefix(2) == ["skipped", "noCertificates"])
        #expect(checks["wifi"]?.prefix(2) == ["skipped", "wifiNotConfigured"])
        // Errors first, then warnings, ok, skipped.
        let order = lines.dropFirst().map { $0.split(separator: " ")[1] }
        let rank = ["error": 0, "warning": 1, "ok": 2, "skipped": 3]
        #expect(order.map { rank[String($0)]! } == order.map { rank[String($0)]! }.sorted(), "\(order)")
        // The probe left nothing in the store.
        let left = try Tools.run("find", [box.localStore, "-type", "f"])
        #expect(left.stdout.isEmpty, "\(left.stdout)")
    }

    /// A share base on loopback stops the event: exit 1, the check an error naming share.base_url,
    /// and the table says so first, with what to do.
    @Test func aShareBaseOnLoopbackIsNotReady() throws {
        let box = try readyBox()
        defer { box.remove() }
        let arguments = ["doctor", "--skip", "camera,microphone", "--system-dir", "\(box.root)/etc", "--set", "share.base_url=http://127.0.0.1:8080/s/{token}"]
        let json = try box.recorder(arguments + ["--json"])
        #expect(json.status == 1, "\(json.stderr)")
        let lines = try pythonReads(json.stdout, in: box)
        #expect(lines.first?.hasPrefix("False 1 ") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("share-links error shareUnreachable ") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("share-links ") && $0.contains(#""setting": "share.base_url""#) && $0.contains(#""host": "127.0.0.1""#) })
        #expect(!json.stdout.contains("Xk3q9Lw2ZtR8vB0a"), "a token is shown")
        let table = try box.recorder(arguments)
        #expect(table.status == 1)
        let rows = table.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.first == "recorder doctor: NOT READY: 1 error" || rows.first?.hasPrefix("recorder doctor: NOT READY: 1 error, ") == true, "\(table.stdout)")
        let first = try #require(rows.firstIndex { $0.hasPrefix("ERROR") })
        #expect(rows[first].hasPrefix("ERROR    share links  share.base_url = http://127.0.0.1:8080/s/{token} points at 127.0.0.1"), "\(rows[first])")
        #expect(rows[first...].contains { $0.hasPrefix(String(repeating: " ", count: 22) + "-> set share.base_url to") }, "\(table.stdout)")
        // (a word wider than the table, a long path, is never cut: it has a line of its own)
        let wide = rows.filter { $0.count > 100 && $0.trimmingCharacters(in: .whitespaces).contains(" ") }
        #expect(wide.isEmpty, "a line wider than the table: \(wide)")
        #expect(rows.contains("Fix the 1 error above, then run recorder doctor again."))
    }

    /// A bad option is 64 and a configuration that cannot be read 78, as for every command;
    /// neither runs a check.
    @Test func badOptionsAndConfigurationsExitAsEveryCommandDoes() throws {
        let box = try readyBox()
        defer { box.remove() }
        let unknown = try box.recorder(["doctor", "--skip", "camera,kettle"])
        #expect(unknown.status == 64 && unknown.stderr.contains("kettle"), "\(unknown.stderr)")
        let bad = try box.recorder(["doctor", "--json", "--set", "shoot.crf=99"])
        #expect(bad.status == 78, "\(bad.stderr)")
        let object = try jsonObject(bad.stdout)
        #expect(object["exitStatus"] as? Int == 78)
        #expect(!FileManager.default.fileExists(atPath: box.localStore), "a check ran")
    }

    /// What the kiosk would refuse (a weak token here) is the configuration check's error, and the
    /// other checks still run.
    @Test func whatTheKioskRefusesIsAnErrorAndTheRestStillRun() throws {
        let box = try readyBox()
        defer { box.remove() }
        try "letmein-2026\n".write(toFile: "\(box.root)/config/kiosk-token", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(box.root)/config/kiosk-token")
        let result = try box.recorder(["doctor", "--json", "--skip", "camera,microphone", "--system-dir", "\(box.root)/etc"])
        #expect(result.status == 1)
        let lines = try pythonReads(result.stdout, in: box)
        #expect(lines.contains { $0.hasPrefix("configuration error configurationRefused ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("tokens error tokens ") && $0.contains(#""weak""#) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("store ok storeRoundTrip ") }, "\(lines)")
    }
}
