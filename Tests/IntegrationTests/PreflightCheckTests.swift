import Foundation
import Glibc
import Library
@testable import Preflight
import Settings
import StorageUpload
import SystemSupport
import Synchronization
import Testing
import StoreValues
import Failures
import PreflightValues

/// The preflight's checks (`recorder doctor`, the operator page's list) against real things: a
/// tmpfs filled up, a local store, token files, certificates made by openssl, hostapd's own file,
/// a queued post; judged by the finding's kind and data, never by words.
@Suite struct PreflightCheckTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    // MARK: the run

    /// A check that hangs is reported as stuck once its deadline passes on the run's clock, and
    /// the others' findings are there: the run never waits for it.
    @Test(.timeLimit(.minutes(2))) func aCheckThatHangsIsReportedAsStuckAndTheRestGoOn() async throws {
        let clock = ManualClock()
        let release = DispatchSemaphore(value: 0)
        let stopped = Atomic<Bool>(false)
        let diskDone = Atomic<Bool>(false)
        let probes = [
            PreflightProbe.blocking(.store, deadline: .seconds(20)) { stop in
                // Stuck in a call that cannot be interrupted; it only notes the stop signal afterwards.
                release.wait()
                stopped.store(stop.isSet, ordering: .relaxed)
                return .storeUnconfigured(problem: "never seen")
            },
            PreflightProbe.blocking(.disk, deadline: .seconds(20)) { _ in
                defer { diskDone.store(true, ordering: .relaxed) }
                return DiskCheck.look(workspace: "/tmp", outbox: "/tmp", localStore: nil, bitrateKbps: 50, shotBytes: 1)
            },
            PreflightProbe.known(.clock, .clockSynchronised(now: "2026-11-27T00:00:00Z")),
        ]
        let run = Task { await PreflightRun.run(probes, clock: clock) }
        // Every check's deadline asked for; the quick ones ended and gave theirs up; the stuck
        // one's still waits on the clock (due at 20 s: nothing has moved it yet).
        let quickEnded = await waitUntil { clock.asked == 3 && diskDone.load(ordering: .relaxed) && clock.sleeping == 1 }
        #expect(quickEnded, "sleeping on the clock: \(clock.sleeping) of \(clock.asked)")
        clock.advance(by: .seconds(19))
        #expect(clock.sleeping == 1)
        clock.advance(by: .seconds(2))
        let report = await run.value
        #expect(report[.store]?.finding == .timedOut(seconds: 20))
        #expect(report[.store]?.status == .error)
        #expect(report[.store]?.milliseconds == 21_000)
        #expect(report[.clock]?.finding == .clockSynchronised(now: "2026-11-27T00:00:00Z"))
        if case .diskRoom? = report[.disk]?.finding {} else { Issue.record("disk: \(String(describing: report[.disk]))") }
        #expect(!report.ready)
        #expect(report.checks.first?.id == .store, "errors come first: \(report.checks.map(\.id))")
        release.signal()
        #expect(await waitUntil { stopped.load(ordering: .relaxed) }, "the stuck check's stop signal was set")
    }

    // MARK: disk

    /// A disk nearly full (a small tmpfs) has room for minutes, not hours: an error, with the free
    /// space statvfs gives (as df reads it) and the bitrate it was judged at.
    @Test func aNearlyFullDiskIsAnErrorWithItsHoursAndPlaces() throws {
        guard let disk = try Tools.smallFileSystem(size: "64m") else { return }
        defer { Tools.removeSmallFileSystem(disk) }
        for dir in ["ws", "outbox", "store"] { try FileManager.default.createDirectory(atPath: "\(disk)/\(dir)", withIntermediateDirectories: true) }
        try Data(count: 40 << 20).write(to: URL(fileURLWithPath: "\(disk)/ballast"))
        let finding = DiskCheck.look(workspace: "\(disk)/ws", outbox: "\(disk)/outbox", localStore: "\(disk)/store", bitrateKbps: nil, shotBytes: 16 << 20)
        guard case .diskRoom(let hours, let kbps, let constantQuality, _, let places) = finding else {
            Issue.record("not a disk finding: \(finding)")
            return
        }
        let df = try Tools.run("df", ["--output=avail", "-B1", disk])
        let available = try #require(Int64(df.stdout.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) ?? ""))
        #expect(places.map(\.role) == [.workspace, .outbox, .store])
        #expect(places.allSatisfy { abs(($0.freeBytes ?? 0) - available) < 1 << 20 }, "\(places) against df's \(available)")
        #expect(kbps == 4000 && constantQuality)
        // 24 MiB at 4000 kbit/s (1.8 GB an hour): under a minute.
        #expect(hours > 0 && hours < 0.05, "\(hours)")
        #expect(finding.status == .error)
        // A place without room for one shot is an error whatever the hours.
        let tiny = DiskCheck.look(workspace: "\(disk)/ws", outbox: "/tmp", localStore: nil, bitrateKbps: 50, shotBytes: available + 1)
        #expect(tiny.status == .error, "\(tiny)")
    }

    @Test func aDiskWithRoomForTheEventIsOk() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 50 kbit/s is 22.5 MB an hour: any disk a test runs on has 4 hours of that.
        let finding = DiskCheck.look(workspace: dir + "/not-made-yet", outbox: dir, localStore: nil, bitrateKbps: 50, shotBytes: 1)
        #expect(finding.status == .ok, "\(finding)")
        if case .diskRoom(let hours, 50, false, _, let places) = finding {
            #expect(hours >= DiskCheck.warningBelowHours)
            #expect(places.allSatisfy { $0.freeBytes != nil }, "a directory not made yet is asked of its parent")
        } else {
            Issue.record("\(finding)")
        }
    }

    // MARK: store

    /// The local store's round trip leaves nothing behind; one that does not exist (a disk that is
    /// not mounted) or is a file refuses the write, with its errno.
    @Test func localStoreRoundTripAndStoresThatRefuse() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = LocalDirectoryBackend(root: dir + "/store", createsRoot: true)
        let finding = StoreCheck.roundTrip(store)
        guard case .storeRoundTrip(let destination, let bytes, _) = finding else {
            Issue.record("\(finding)")
            return
        }
        #expect(destination == .local(path: dir + "/store") && bytes > 0)
        let left = try Tools.run("find", [dir + "/store", "-type", "f"])
        #expect(left.status == 0 && left.stdout.isEmpty, "the probe is left: \(left.stdout)")

        let missing = LocalDirectoryBackend(root: dir + "/unmounted", createsRoot: false)
        #expect(StoreCheck.roundTrip(missing) == .storeFailed(destination: .local(path: dir + "/unmounted"), step: .write, fault: .local(errno: ENOENT)))
        #expect(!FileManager.default.fileExists(atPath: dir + "/unmounted"), "the check made the missing store")
        FileManager.default.createFile(atPath: dir + "/file", contents: Data("not a directory".utf8))
        let file = LocalDirectoryBackend(root: dir + "/file", createsRoot: true)
        #expect(StoreCheck.roundTrip(file) == .storeFailed(destination: .local(path: dir + "/file"), step: .write, fault: .local(errno: ENOTDIR)))
    }

    // MARK: outbox

    /// A post that could not reach its store waits in the outbox: counted, with its error, and
    /// counted apart when it was queued for another store than this configuration's.
    @Test func aQueuedPostIsAWarningWithItsAgeAndError() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        #expect(OutboxCheck.look(root: box.outbox, destination: nil) == .outboxEmpty(path: box.outbox))
        try box.shoot(seconds: 0.5)
        box.extraEnvironment = ["AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "y"]
        let post = try box.recorder(["post", "--backend", "s3", "--endpoint", "http://127.0.0.1:9", "--bucket", "clips", "--caption", "",
                                     "--set", "network.connect_timeout_seconds=1"])
        #expect(post.status == 75, "\(post.stderr)")
        let here = StoreDestination.local(path: box.localStore)
        let finding = OutboxCheck.look(root: box.outbox, destination: here, now: Date().addingTimeInterval(3600))
        guard case .outboxQueued(let path, let depth, let oldest, let age, let lastFailure, _, let elsewhere) = finding else {
            Issue.record("\(finding)")
            return
        }
        #expect(path == box.outbox && depth == 1 && elsewhere == 1)
        #expect(RFC3339.date(oldest) != nil && (3590...3700).contains(age), "\(oldest), \(age)")
        #expect(lastFailure?.kind == .transport(code: 7), "\(String(describing: lastFailure))")
        #expect(finding.status == .warning)
    }

    // MARK: tokens

    /// Token files as the package makes them are strong; a short one, one others may read, one
    /// missing beyond loopback and one the booth shares with the operator are errors.
    @Test func tokensPresentStrongAndPrivate() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func file(_ name: String, _ text: String, mode: Int) throws -> String {
            let path = "\(dir)/\(name)"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }
        let strong = try file("operator", "Xk3q9Lw2ZtR8vB0aYcN1pE4sHfJ6uDmqab7Tz0Pq\n", mode: 0o600)
        let booth = try file("booth", "Qm2Z8xT4bN7cR1vL5kH9pW3sD6fJ0gYaE8uI2oPw\n", mode: 0o600)
        let weak = try file("weak", "letmein-2026\n", mode: 0o600)
        let open = try file("open", "Xk3q9Lw2ZtR8vB0aYcN1pE4sHfJ6uDmqab7Tz0Pq\n", mode: 0o644)
        func reading(_ path: String?) throws -> TokenReading {
            var flags: [String: String] = [:]
            if let path { flags["kiosk.token_file"] = path }
            let configuration = try RecorderConfiguration(flags: flags, configFile: "/dev/null", environment: [:], settings: SettingsCatalogue(Setting.core, [
                Setting("kiosk.token_file", "t"), Setting("kiosk.token", .token, "t")]))
            return TokenReading.read(configuration, key: "kiosk.token", fileKey: "kiosk.token_file")
        }
        let good = TokenCheck.look(operatorToken: try reading(strong), boothToken: try reading(booth), listen: "0.0.0.0:8080", beyondLoopback: true)
        guard case .tokens(.strong(let bits, strong), .strong, _, true) = good else {
            Issue.record("\(good)")
            return
        }
        #expect(bits >= 128 && good.status == .ok)
        let short = TokenCheck.look(operatorToken: try reading(weak), boothToken: try reading(booth), listen: "127.0.0.1:8080", beyondLoopback: false)
        guard case .tokens(.weak(let weakBits, weak), _, _, _) = short else {
            Issue.record("\(short)")
            return
        }
        #expect(weakBits < 128 && short.status == .error)
        let readable = TokenCheck.look(operatorToken: try reading(open), boothToken: .none, listen: "127.0.0.1:8080", beyondLoopback: false)
        #expect(readable == .tokens(operatorToken: .readableByOthers(path: open, mode: "644"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false))
        #expect(readable.status == .error)
        let none = TokenCheck.look(operatorToken: try reading(nil), boothToken: .none, listen: "0.0.0.0:8080", beyondLoopback: true)
        #expect(none.status == .error)
        #expect(TokenCheck.look(operatorToken: .none, boothToken: .none, listen: "127.0.0.1:8080", beyondLoopback: false).status == .warning)
        let same = TokenCheck.look(operatorToken: try reading(strong), boothToken: try reading(strong), listen: "127.0.0.1:8080", beyondLoopback: false)
        guard case .tokens(_, .sameAsOperator, _, _) = same else {
            Issue.record("\(same)")
            return
        }
        #expect(same.status == .error)
        let noBooth = TokenCheck.look(operatorToken: try reading(strong), boothToken: .none, listen: "127.0.0.1:8080", beyondLoopback: false)
        #expect(noBooth.status == .warning)
    }

    // MARK: share links

    /// A share base on loopback is an error naming share.base_url; the kiosk's own page on loopback
    /// names kiosk.listen; presigned links to a store on loopback name s3.endpoint; with the booth's
    /// Wi-Fi the base must be the share page.
    @Test func shareLinksAPhoneCanOpen() {
        let loopback = ShareLinkCheck.look(template: "http://127.0.0.1:8080/s/{token}", boothWifi: false, presignedEndpoint: nil, pageBase: nil)
        #expect(loopback == .shareUnreachable(url: "http://127.0.0.1:8080/s/{token}", host: "127.0.0.1", setting: "share.base_url"))
        #expect(loopback.status == .error)
        #expect(ShareLinkCheck.look(template: "https://localhost/{key}", boothWifi: false, presignedEndpoint: nil, pageBase: nil)
            == .shareUnreachable(url: "https://localhost/{key}", host: "localhost", setting: "share.base_url"))
        #expect(ShareLinkCheck.look(template: "http://[::1]/s/{token}", boothWifi: false, presignedEndpoint: nil, pageBase: nil).status == .error)
        let lan = ShareLinkCheck.look(template: "http://192.168.1.20/s/{token}", boothWifi: false, presignedEndpoint: nil, pageBase: nil)
        #expect(lan == .shareTemplate(url: "http://192.168.1.20/s/{token}", host: "192.168.1.20") && lan.status == .ok)
        #expect(ShareLinkCheck.look(template: nil, boothWifi: false, presignedEndpoint: nil, pageBase: "http://127.0.0.1:8080")
            == .shareUnreachable(url: "http://127.0.0.1:8080/s/{token}", host: "127.0.0.1", setting: "kiosk.listen"))
        #expect(ShareLinkCheck.look(template: nil, boothWifi: false, presignedEndpoint: nil, pageBase: "http://10.0.0.5:8080")
            == .sharePage(address: "http://10.0.0.5:8080"))
        #expect(ShareLinkCheck.look(template: nil, boothWifi: false, presignedEndpoint: "http://127.0.0.1:8333", pageBase: nil)
            == .shareUnreachable(url: "http://127.0.0.1:8333", host: "127.0.0.1", setting: "s3.endpoint"))
        #expect(ShareLinkCheck.look(template: "https://cdn.example.com/{key}", boothWifi: true, presignedEndpoint: nil, pageBase: nil)
            == .shareNotOnBoothWifi(url: "https://cdn.example.com/{key}", setting: "share.base_url"))
        #expect(ShareLinkCheck.look(template: "http://10.42.0.1/s/{token}", boothWifi: true, presignedEndpoint: nil, pageBase: nil).status == .ok)
    }

    // MARK: certificates

    /// Certificates made by openssl: one valid for a year, one that expires in 5 days (a warning),
    /// one that expired in 2025 (an error), each with the dates openssl gave it.
    @Test func certificatesNearExpiryAndExpired() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tls = dir + "/tls"
        try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
        #expect(CertificateCheck.look(directory: tls) == .noCertificates(directory: tls))
        func selfSigned(_ name: String, days: Int) throws {
            let made = try Tools.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(tls)/\(name).key",
                                                 "-out", "\(tls)/\(name).crt", "-days", "\(days)", "-subj", "/CN=\(name).booth.test"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        try selfSigned("booth", days: 365)
        try selfSigned("share", days: 5)
        // An expired one: openssl ca signs with the dates it is given.
        try "[ca]\ndefault_ca = d\n[d]\ndatabase = \(dir)/index.txt\nnew_certs_dir = \(dir)\nserial = \(dir)/serial\ndefault_md = sha256\npolicy = p\nunique_subject = no\n[p]\ncommonName = supplied\n"
            .write(toFile: "\(dir)/ca.cnf", atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: "\(dir)/index.txt", contents: Data())
        try "01\n".write(toFile: "\(dir)/serial", atomically: true, encoding: .utf8)
        try #require(try Tools.run("openssl", ["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/old.key", "-out", "\(dir)/old.csr",
                                               "-subj", "/CN=old.booth.test"]).status == 0)
        let signed = try Tools.run("openssl", ["ca", "-batch", "-notext", "-config", "\(dir)/ca.cnf", "-selfsign", "-keyfile", "\(dir)/old.key",
                                               "-in", "\(dir)/old.csr", "-out", "\(tls)/old.crt", "-startdate", "20250101000000Z", "-enddate", "20250201000000Z"])
        try #require(signed.status == 0, "\(signed.stderr)")
        // A key in a .pem is no certificate to look at.
        try FileManager.default.copyItem(atPath: "\(tls)/booth.key", toPath: "\(tls)/booth-key.pem")
        func notAfter(_ name: String) throws -> Date {
            let shown = try Tools.run("openssl", ["x509", "-in", "\(tls)/\(name).crt", "-noout", "-enddate", "-dateopt", "iso_8601"])
            let text = shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "notAfter=", with: "")
            return try #require(ISO8601DateFormatter().date(from: text.replacingOccurrences(of: " ", with: "T")), "\(shown.stdout)")
        }
        let now = Date()
        let finding = CertificateCheck.look(directory: tls, now: now)
        guard case .certificates(let states) = finding else {
            Issue.record("\(finding)")
            return
        }
        #expect(states.count == 3, "\(states)")
        let iso = { (date: Date) in RFC3339.string(date) }
        #expect(states.contains(.valid(path: "\(tls)/booth.crt", subject: "/CN=booth.booth.test", notAfter: iso(try notAfter("booth")), daysLeft: 364)))
        #expect(states.contains(.expiring(path: "\(tls)/share.crt", subject: "/CN=share.booth.test", notAfter: iso(try notAfter("share")), daysLeft: 4)))
        let expired = try #require(states.first { if case .expired = $0 { true } else { false } })
        guard case .expired(let path, let subject, let end, let daysAgo) = expired else { return }
        #expect(path == "\(tls)/old.crt" && subject == "/CN=old.booth.test" && end == "2025-02-01T00:00:00Z")
        #expect(daysAgo == Int(now.timeIntervalSince(RFC3339.date(end)!) / 86_400))
        #expect(finding.status == .error)
        try FileManager.default.removeItem(atPath: "\(tls)/old.crt")
        #expect(CertificateCheck.look(directory: tls, now: now).status == .warning)
        try "not a certificate\n".write(toFile: "\(tls)/share.crt", atomically: true, encoding: .utf8)
        #expect(CertificateCheck.look(directory: tls, now: now) == .certificates([
            .valid(path: "\(tls)/booth.crt", subject: "/CN=booth.booth.test", notAfter: iso(try notAfter("booth")), daysLeft: 364),
            .unreadable(path: "\(tls)/share.crt")]))
    }

    // MARK: wifi

    /// The shipped hostapd.conf against the kiosk's settings: the same name, security and password
    /// agree; each that differs is named (the password never shown); an open network's file.
    @Test func wifiSettingsAgainstHostapdsFile() throws {
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/hostapd.conf"
        try FileManager.default.copyItem(atPath: Self.repository + "/systemd/wifi/hostapd.conf", toPath: file)
        #expect(WifiCheck.look(name: "recorder-booth", security: "wpa2", password: "change-this-password", hostapd: file)
            == .wifiMatches(file: file, name: "recorder-booth", security: "wpa2"))
        #expect(WifiCheck.look(name: "Our booth", security: "wpa2", password: "tanzen-bis-4", hostapd: file)
            == .wifiDisagrees(file: file, fields: [.name(configured: "Our booth", file: "recorder-booth"), .password]))
        #expect(WifiCheck.look(name: "recorder-booth", security: "open", password: "", hostapd: file)
            == .wifiDisagrees(file: file, fields: [.security(configured: "open", file: "wpa2")]))
        let open = dir + "/open.conf"
        try FileManager.default.copyItem(atPath: Self.repository + "/systemd/wifi/hostapd-open.conf", toPath: open)
        #expect(WifiCheck.look(name: "recorder-booth", security: "open", password: "", hostapd: open) == .wifiMatches(file: open, name: "recorder-booth", security: "open"))
        #expect(WifiCheck.look(name: "recorder-booth", security: "wpa2", password: "x", hostapd: dir + "/none.conf") == .hostapdMissing(file: dir + "/none.conf"))
        #expect(WifiCheck.look(name: "", security: "wpa2", password: "", hostapd: file) == .wifiNotConfigured(setting: "kiosk.wifi_ssid"))
        // A file it cannot read (a directory here: root reads any file) is not compared.
        #expect(WifiCheck.look(name: "recorder-booth", security: "wpa2", password: "x", hostapd: dir) == .hostapdUnreadable(file: dir))
    }

    // MARK: clock

    /// A clock before this version was made has lost the time; the time service's answer, asked
    /// of a timedatectl that says what a real one says when it is not synchronised (no systemd
    /// here to make one so), and none at all.
    @Test func clockSynchronisedOrNot() throws {
        #expect(ClockCheck.look(now: Date(timeIntervalSince1970: 86_400), synchronised: true)
            == .clockBeforeRelease(now: "1970-01-02T00:00:00Z", release: RFC3339.string(RecorderVersion.madeAt)))
        let dir = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fake = dir + "/timedatectl"
        try "#!/bin/sh\necho NTP=yes\necho NTPSynchronized=no\n".write(toFile: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let now = RecorderVersion.madeAt.addingTimeInterval(86_400)
        let said = ClockCheck.look(now: now, synchronised: TimeSync.synchronised(timedatectl: fake))
        #expect(said == .clockNotSynchronised(now: RFC3339.string(now)) && said.status == .warning)
        #expect(ClockCheck.look(now: now, synchronised: TimeSync.synchronised(timedatectl: dir + "/missing")) == .noTimeService(now: RFC3339.string(now)))
    }

    /// Waits (up to 60 s) for `condition`, looking again every 10 ms.
    func waitUntil(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
