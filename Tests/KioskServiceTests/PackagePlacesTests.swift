import Foundation
import Failures
import Glibc
import KioskService
import Publishing
@testable import Settings
import StorageUpload
import SystemSupport
import Testing
import KioskState

/// The package's own settings (`RecorderConfiguration.packageFile`, /usr/lib/recorder/recorder.conf
/// on a booth): every command reads the service's places and its secrets' files beneath the
/// organiser's configuration, so `recorder export` run as root on the booth finds the service's
/// posts, not root's ~/.local (issue 49: it exported 0 posts and exited 0 while the booth held 3).
@Suite struct PackagePlacesTests {
    private let directory = NSTemporaryDirectory() + "package-\(UUID().uuidString)"

    private func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try #require(chmod(path, mode) == 0)
        return path
    }

    /// The package's file as systemd/recorder-package.conf ships it, with its places under `state`.
    private func packageFile(state: String) throws -> String {
        let shipped = try String(contentsOfFile: #filePath.replacing("Tests/KioskServiceTests/PackagePlacesTests.swift", with: "systemd/recorder-package.conf"),
                                 encoding: .utf8)
        return try write("package.conf", shipped.replacing("/var/lib/recorder", with: state).replacing("/var/cache/recorder", with: state + "/cache")
                                                 .replacing("/etc/recorder", with: directory))
    }

    private func configuration(_ configFile: String?, environment: [String: String] = [:], package: String,
                               flags: [String: String] = [:]) throws -> RecorderConfiguration {
        try RecorderConfiguration(flags: flags, configFile: configFile, environment: ["HOME": "/nonexistent"].merging(environment) { $1 },
                                  settings: .withKiosk, packageFile: package)
    }

    @Test func everyCommandReadsTheServicesPlacesBeneathTheOrganisersConfiguration() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = "\(directory)/state"
        let package = try packageFile(state: state)
        let organiser = try write("recorder.conf", "kiosk.seconds = 10\n")
        let booth = try configuration(organiser, package: package)
        #expect(booth.problems.isEmpty, "\(booth.problems)")
        #expect(booth.outboxDirectory == "\(state)/outbox" && booth.localStoreDirectory == "\(state)/store")
        #expect(booth.workspaceDirectory == "\(state)/workspace" && booth.videoCacheDirectory == "\(state)/cache/videos")
        #expect(KioskSettings.stateDirectory(booth) == "\(state)/kiosk")
        #expect(booth.secretFile("kiosk.token_file") == "\(directory)/kiosk-token")
        let shown = Dictionary(uniqueKeysWithValues: booth.effectiveValues().map { ($0.key, ($0.value, $0.origin)) })
        #expect(shown["outbox"]?.1.hasPrefix(package + ":") == true && shown["kiosk.seconds"]?.1 == "\(organiser):1", "\(shown["outbox"]!)")
        #expect(booth.isPackageDefault("outbox") && !booth.isPackageDefault("kiosk.seconds"))
        // Anything above it wins: the organiser's file, the environment, the command line.
        let moved = try write("moved.conf", "outbox = /srv/outbox\n")
        #expect(try configuration(moved, package: package).outboxDirectory == "/srv/outbox")
        #expect(try configuration(organiser, environment: ["RECORDER_OUTBOX": "/env/outbox"], package: package).outboxDirectory == "/env/outbox")
        #expect(try configuration(organiser, package: package, flags: ["outbox": "/flag/outbox"]).outboxDirectory == "/flag/outbox")
        // No package installed: each user's own places, as before.
        let alone = try configuration(organiser, package: "\(directory)/absent.conf")
        #expect(alone.outboxDirectory == "/nonexistent/.local/state/recorder/outbox" && alone.packageLayer == nil)
        // A mistake in it is named at its line, before the organiser's.
        let broken = try write("broken.conf", "outbox = /x\noutbx = /y\n")
        let refused = RecorderConfiguration(collecting: [:], configFile: try write("bad.conf", "kiosk.seconds = -1\n"),
                                            environment: [:], settings: .withKiosk, packageFile: broken)
        #expect(refused.problems.map(\.location) == ["\(broken):2", "\(directory)/bad.conf:1"], "\(refused.problems)")
    }

    /// The service's store is in its state directory: made when missing, as the default one is;
    /// one the organiser names must exist (an unmounted disk must not fill the one under it).
    @Test func thePackagesStoreIsMadeWhenMissingAndAnOrganisersIsNot() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = "\(directory)/state"
        let booth = try configuration(nil, package: try packageFile(state: state))
        #expect((try booth.makeBackend() as? LocalDirectoryBackend)?.createsRoot == true)
        let usb = try write("usb.conf", "local.path = \(directory)/usb/store\n")
        #expect((try configuration(usb, package: try packageFile(state: state)).makeBackend() as? LocalDirectoryBackend)?.createsRoot == false)
    }

    /// The secrets: the service reads the copies systemd hands it (whatever the files' modes), the
    /// commands read the files the package names; a file the organiser names wins over both.
    @Test func theServiceReadsItsCredentialAndTheCommandsThePackagesFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = "k" + String(repeating: "Q7x", count: 14)
        _ = try write("kiosk-token", token + "\n", mode: 0o640)
        let package = try packageFile(state: "\(directory)/state")
        let command = try configuration(nil, package: package)
        #expect(TokenReading.read(command, key: "kiosk.token", fileKey: "kiosk.token_file") == .token(token, origin: "\(directory)/kiosk-token"))
        // Under the unit: systemd's copy, though the file itself is root's alone.
        let credentials = "\(directory)/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try (token + "\n").write(toFile: "\(credentials)/kiosk-token", atomically: true, encoding: .utf8)
        try #require(chmod("\(directory)/kiosk-token", 0o600) == 0)
        let service = try configuration(nil, environment: ["CREDENTIALS_DIRECTORY": credentials], package: package)
        #expect(service.secretFile("kiosk.token_file") == "\(credentials)/kiosk-token")
        #expect(TokenReading.read(service, key: "kiosk.token", fileKey: "kiosk.token_file").token == token)
        // The organiser's own file wins over the credential.
        let own = try write("own-token", token + "\n", mode: 0o600)
        let named = try configuration(try write("named.conf", "kiosk.token_file = \(own)\n"), environment: ["CREDENTIALS_DIRECTORY": credentials],
                                      package: package)
        #expect(named.secretFile("kiosk.token_file") == own)
    }

    /// Installed by hand (no package file), a command run at the shell judges the token the unit
    /// will hand the service: the file its LoadCredential= names. `recorder config check` said
    /// "no API token is set" of a booth listening on 0.0.0.0 whose token was in place (CI21).
    @Test func outsideTheUnitTheCheckReadsTheFileTheUnitHandsOver() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let organiser = try write("recorder.conf", "kiosk.listen = 0.0.0.0:8080\n")
        func judged(_ environment: [String: String] = [:]) -> [RecorderError] {
            var shell = RecorderConfiguration(collecting: [:], configFile: organiser, environment: ["HOME": "/nonexistent"].merging(environment) { $1 },
                                              settings: .withKiosk, packageFile: "\(directory)/absent.conf")
            shell.credentialSources = directory
            return ConfigurationCheck.findings(shell).filter { $0.keys.contains { $0.hasPrefix("kiosk.token") } }.map(\.error)
        }
        // No token anywhere: exposed, and said so.
        #expect(judged() == [.kiosk(.exposedWithoutToken(listen: "0.0.0.0:8080"))], "\(judged())")
        // The unit's source holds one: no finding.
        let random = (0..<24).map { _ in UInt8.random(in: 0...255) }
        _ = try write("kiosk-token", Data(random).base64EncodedString() + "\n", mode: 0o600)
        #expect(judged().isEmpty, "\(judged())")
        // Under the unit the service reads only its own credential directory.
        let credentials = "\(directory)/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        #expect(!judged(["CREDENTIALS_DIRECTORY": credentials]).isEmpty)
        // Readable by others there, it is no secret, as anywhere else.
        try #require(chmod("\(directory)/kiosk-token", 0o644) == 0)
        #expect(!judged().isEmpty)
    }

    /// The place the commands look is the one the units name, credential by credential.
    @Test func theUnitsTakeEveryCredentialFromTheDirectoryTheCommandsRead() throws {
        let root = #filePath.replacing("Tests/KioskServiceTests/PackagePlacesTests.swift", with: "")
        let names = Set(SettingsCatalogue.withKiosk.keys.compactMap { SettingsCatalogue.withKiosk[$0]?.credential })
        #expect(!names.isEmpty)
        var seen = Set<String>()
        for unit in ["systemd/recorder.service", "systemd/recorder-serve.service"] {
            for line in try String(contentsOfFile: root + unit, encoding: .utf8).split(separator: "\n") where line.hasPrefix("LoadCredential=") {
                let parts = line.dropFirst("LoadCredential=".count).split(separator: ":", maxSplits: 1).map(String.init)
                #expect(parts.count == 2 && parts[1] == RecorderConfiguration.credentialSources + "/" + parts[0], "\(unit): \(line)")
                seen.insert(parts[0])
            }
        }
        #expect(names.isSubset(of: seen), "\(names.subtracting(seen)) has no LoadCredential= line")
    }

    /// A secret shared with a group by root (the package's tokens: root:recorder 0640, for the
    /// organisers) stays a secret; readable by every user, or by the group of a file root does not
    /// own, it is none.
    @Test func aSecretRootSharesWithAGroupIsKeptOneOthersCanReadIsNot() throws {
        try #require(geteuid() == 0, "run as root, as CI does")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = "k" + String(repeating: "Q7x", count: 14)
        let path = try write("token", token + "\n", mode: 0o640)
        try #require(chown(path, 0, 65534) == 0)
        let configuration = try configuration(try write("c.conf", "kiosk.token_file = \(path)\n"), package: "\(directory)/absent")
        #expect(TokenReading.read(configuration, key: "kiosk.token", fileKey: "kiosk.token_file") == .token(token, origin: path))
        for (mode, owner) in [(mode_t(0o644), UInt32(0)), (0o660, 0), (0o640, 65534)] {
            try #require(chmod(path, mode) == 0 && chown(path, owner, 65534) == 0)
            #expect(TokenReading.read(configuration, key: "kiosk.token", fileKey: "kiosk.token_file") == .readableByOthers(path: path, mode: UInt32(mode)),
                    "mode \(String(mode, radix: 8)), owner \(owner)")
        }
    }
}
