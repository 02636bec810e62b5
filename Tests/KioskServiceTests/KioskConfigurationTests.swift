import Foundation
import KioskService
import Publishing
@testable import Settings
import Testing
import ShareServer
import KioskState
import Failures
import Fleet

/// The configuration with the kiosk's settings joined to the core's, as `recorder` reads it.
@Suite struct KioskConfigurationTests {
    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "conf-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func everyValueIsCheckedWhenRead() throws {
        let path = try file("""
            cache.max_mib = lots
            local.create = maybe
            backend = ftp
            kiosk.listen = 8080
            kiosk.countdown_seconds = 2.5
            shoot.size = 10x10
            shoot.crf = 60
            shoot.format = bogus
            shoot.preset = quick
            shoot.seconds = 0
            kiosk.token = short
            """)
        defer { unlink(path) }
        let first = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: path, environment: [:], settings: .withKiosk) }
        let problem = first?.failure(as: ConfigurationProblem.self)
        #expect(problem?.location == "\(path):1" && problem?.more == 10 && first?.kind == .misconfigured, "\(String(describing: first))")
        if case .badValue("cache.max_mib", "lots", .number)? = problem?.issue {} else { Issue.record("\(String(describing: first))") }
        let all = RecorderConfiguration(collecting: ["s3.parallel_parts": "99"], configFile: path,
                                        environment: ["RECORDER_RETRY_MAX_SECONDS": "-1"], settings: .withKiosk)
        #expect(all.problems.map(\.location) == (1...11).map { "\(path):\($0)" } + ["RECORDER_RETRY_MAX_SECONDS", "the command line"])
        if case .badValue("kiosk.countdown_seconds", "2.5", .number(_, integer: true)) = all.problems[4].issue {} else { Issue.record("\(all.problems[4])") }
        if case .badValue("shoot.seconds", "0", .positive) = all.problems[9].issue {} else { Issue.record("\(all.problems[9])") }
        let good = try file("cache.max_mib = 2048\nkiosk.listen = [::1]:9000\nshoot.seconds = 0.5\nlocal.create = yes\n")
        defer { unlink(good) }
        #expect(RecorderConfiguration(collecting: [:], configFile: good, environment: [:], settings: .withKiosk).problems.isEmpty)
    }

    @Test func effectiveValuesNameTheirOriginAndMaskSecrets() throws {
        let path = try file("backend = local\nkiosk.token = 0123456789abcdefXYZ0123456789\ns3.endpoint = https://user:pw@host:9000/x\n")
        defer { unlink(path) }
        let config = try RecorderConfiguration(flags: ["s3.bucket": "b"], configFile: path,
                                               environment: ["HOME": "/home/x", "RECORDER_S3_REGION": "eu", "XDG_RUNTIME_DIR": "/run/u"], settings: .withKiosk)
        let shown = Dictionary(uniqueKeysWithValues: config.effectiveValues().map { ($0.key, ($0.value, $0.origin)) })
        #expect(shown.count == SettingsCatalogue.withKiosk.settings.count)
        #expect(shown["backend"]! == ("local", "\(path):1"))
        #expect(shown["kiosk.token"]! == ("********", "\(path):2"))
        #expect(shown["s3.endpoint"]! == ("https://user:********@host:9000/x", "\(path):3"))
        #expect(shown["s3.bucket"]! == ("b", "flag") && shown["s3.region"]! == ("eu", "RECORDER_S3_REGION"))
        #expect(shown["shoot.crf"]! == ("23", "default") && shown["workspace"]! == ("/run/u/recorder", "default"))
        #expect(shown["shoot.size"]! == (nil, "default"))
    }

    @Test func theKiosksKeysAreItsOwnAndEveryDefaultPassesItsRule() throws {
        #expect(Setting.kiosk.allSatisfy { $0.key.hasPrefix("kiosk.") })
        #expect(Setting.mail.allSatisfy { $0.key.hasPrefix("mail.") } && Setting.event.allSatisfy { $0.key.hasPrefix("event.") })
        #expect(Setting.fleet.allSatisfy { $0.key.hasPrefix("fleet.") })
        #expect(SettingsCatalogue.withKiosk.settings.count == Setting.core.count + Setting.kiosk.count + Setting.mail.count + Setting.event.count
                + Setting.serve.count
                + Setting.fleet.count)
        let configuration = try RecorderConfiguration(flags: [:], configFile: nil, environment: ["HOME": "/nonexistent"],
                                                      settings: .withKiosk)
        for setting in Setting.kiosk + Setting.mail + Setting.event + Setting.fleet {
            if let value = setting.defaultValue, !value.isEmpty {
                #expect(setting.rule.accepts(value), "\(setting.key)'s default '\(value)'")
            }
            if case .number = setting.rule { _ = try configuration.number(setting.key) }
            #expect(!setting.summary.isEmpty && !setting.summary.hasSuffix(".") && !setting.summary.contains("(default"), "\(setting.key)")
        }
        // What the kiosk reads with nothing set is what the catalogue says.
        let settings = try KioskSettings(configuration)
        #expect("\(settings.host):\(settings.port)" == SettingsCatalogue.withKiosk["kiosk.listen"]?.defaultValue)
        #expect(settings.countdown == 3 && settings.booth.reviewSeconds == 30 && settings.maxConnections == 512)
    }

    @Test func aCredentialFileIsShownAsTheDefaultOfItsKey() throws {
        let directory = NSTemporaryDirectory() + "creds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/kiosk-token", contents: Data())
        let configuration = try RecorderConfiguration(flags: [:], configFile: nil,
                                                      environment: ["HOME": "/nonexistent", "CREDENTIALS_DIRECTORY": directory],
                                                      settings: .withKiosk)
        let shown = Dictionary(uniqueKeysWithValues: configuration.effectiveValues().map { ($0.key, $0.value) })
        #expect(shown["kiosk.token_file"]! == directory + "/kiosk-token")
        #expect(shown["kiosk.booth_token_file"]! == nil && shown["s3.credentials_file"]! == nil)
    }
}
