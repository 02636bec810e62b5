import Foundation
import Testing
import Failures

/// `recorder config check|show`, and every command reading the same configuration.
@Suite struct ConfigCommandTests {
    private func sandbox(config text: String) throws -> (PostSandbox, String) {
        var box = try PostSandbox()
        let path = "\(box.root)/config/recorder.conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        box.extraEnvironment["RECORDER_CONFIG"] = path
        return (box, path)
    }

    @Test func checkSaysOkOrListsEachProblemWithItsLine() throws {
        let (box, path) = try sandbox(config: "backend = local # the default\ncache.max_mib = lots\n\nbackend = s3\nshoot.crf = 99\n")
        defer { box.remove() }
        let bad = try box.recorder(["config", "check"])
        #expect(bad.status == 78)
        let lines = bad.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(bad.stderr)")
        #expect(lines.first?.hasPrefix("\(path):2: cache.max_mib = 'lots'") == true)
        #expect(lines.dropFirst().first == "\(path):4: backend is set again (first on line 1). Keep one of the two lines.")
        #expect(lines.last?.hasPrefix("\(path):5: shoot.crf = '99' must be a whole number from 0 to 51") == true)
        try "backend = local # the default\nshoot.crf = 30\n".write(toFile: path, atomically: true, encoding: .utf8)
        let good = try box.recorder(["config", "check"])
        #expect(good.status == 0 && good.stdout == "ok\n", "\(good.stderr)")
        let directory = try box.recorder(["config", "check", "--config", box.root])
        #expect(directory.status == 78 && directory.stderr == "the configuration file \(box.root) is a directory. Point --config / RECORDER_CONFIG at the file, e.g. \(box.root)/recorder.conf.\n", "\(directory.stderr)")
        let flagged = try box.recorder(["config", "check", "--set", "shoot.fps=0"])
        #expect(flagged.status == 78 && flagged.stderr.hasPrefix("the command line: shoot.fps = '0'"), "\(flagged.stderr)")
    }

    @Test func showGivesEveryValueAndItsOriginWithSecretsMasked() throws {
        // (a token with 128 bits and more: a weaker one is refused by the check the value goes through)
        var (box, path) = try sandbox(config: "backend = local\nkiosk.token = Xk3q9Lw2ZtR8vB0aYcN1pE4sHfJ6uDmqab\n")
        defer { box.remove() }
        box.extraEnvironment["RECORDER_SHOOT_SECONDS"] = "4"
        let shown = try box.recorder(["config", "show", "--json", "--bucket", "clips"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").count == 1 && !shown.stdout.contains("Xk3q9Lw2ZtR8vB0a"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: [String: String]])
        #expect(json["backend"] == ["value": "local", "origin": "\(path):1"])
        #expect(json["kiosk.token"] == ["value": "********", "origin": "\(path):2"])
        #expect(json["shoot.seconds"] == ["value": "4", "origin": "RECORDER_SHOOT_SECONDS"])
        #expect(json["s3.bucket"] == ["value": "clips", "origin": "flag"])
        #expect(json["shoot.crf"] == ["value": "23", "origin": "default"])
        #expect(json["outbox"]?["value"] == box.outbox)
        let keys = shown.stdout.matches(of: /"([a-z0-9_.]+)":\{/).map { String($0.1) }
        #expect(keys == keys.sorted() && keys.count == json.count)
        let text = try box.recorder(["config", "show"])
        #expect(text.stdout.contains("shoot.seconds = 4  # RECORDER_SHOOT_SECONDS"), "\(text.stdout)")
    }

    @Test func commandsFailAtOnceOnABadValueNamingTheLine() throws {
        let (box, path) = try sandbox(config: "\n  cache.max_mib = lots\n")
        defer { box.remove() }
        // The bad value as its case, on its line (the only setting there); its words are EdgeWordsTests'.
        var said: [String] = []
        for arguments in [["post", "--caption", "x"], ["feed"], ["shoot", "-d", "testsrc"]] {
            let result = try box.recorder(arguments + ["--json"])
            #expect(failed(result) == Failed(78, "misconfigured", "ConfigurationProblem.badValue"), "\(arguments): \(result.stderr)")
            #expect(try jsonObject(result.stdout)["location"] as? String == "\(path):2", "\(arguments): \(result.stdout)")
            said.append(result.stderr)
        }
        // The kiosk (which has no --json) stops with the same failure, in the same words.
        let kiosk = try box.recorder(["kiosk", "--listen", "127.0.0.1:1"])
        #expect(kiosk.status == 78 && !said[0].isEmpty && kiosk.stderr == said[0] && Set(said).count == 1, "\(kiosk.stderr) \(said)")
    }

    @Test func shootAndPostUseTheConfiguredWorkspaceAndShootSettings() throws {
        let (box, _) = try sandbox(config: "")
        defer { box.remove() }
        let workspace = "\(box.root)/kiosk-ws"
        try """
            workspace = \(workspace)   # the kiosk's
            shoot.device = testsrc
            shoot.seconds = 0.5
            shoot.size = 160x120
            shoot.fps = 10
            """.write(toFile: "\(box.root)/config/recorder.conf", atomically: true, encoding: .utf8)
        let shot = try box.recorder(["shoot", "--json", "-q"])
        try #require(shot.status == 0, "\(shot.stderr)")
        #expect(shot.stderr.isEmpty, "\(shot.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shot.stdout.utf8)) as? [String: Any])
        #expect(object["width"] as? Int == 160 && object["height"] as? Int == 120)
        let probe = try Probe("\(workspace)/current/video.mp4")
        #expect(probe.width == 160 && probe.height == 120 && abs(probe.duration - 0.5) <= 0.1, "\(probe)")
        let posted = try box.recorder(["post", "--caption", "from the kiosk's workspace", "--json"])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect((try jsonObject(posted.stdout))["status"] as? String == "uploaded")
    }

    @Test func aMistypedCommandGetsADidYouMean() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["shot"])
        #expect(result.status == 64 && result.stderr.contains("Did you mean 'shoot'?"), "\(result.stderr)")
    }
}
