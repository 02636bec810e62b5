import Foundation
import Settings
@testable import Shooting
import Testing
import TriggerInput
import VideoCapture
import MediaEncoder
@testable import KioskService
@testable import ShareServer
import NIOCore
#if canImport(Glibc)
import Glibc
@testable import KioskWords
@testable import KioskHTTP
@testable import KioskState
#endif
import MediaValues
import Failures

/// A datagram socket standing in for systemd's notify socket.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(abstract: Bool = false) throws {
        let name = "recorder-notify-\(UUID().uuidString.prefix(8))"
        path = abstract ? "@\(name)" : NSTemporaryDirectory() + name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        try #require(bound == 0)
    }

    deinit {
        close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }

    /// The first datagram starting with `prefix` within `seconds`, skipping the others.
    func first(prefix: String, within seconds: Double) -> String? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let message = receive(timeout: max(end.timeIntervalSinceNow, 0.01)), message.hasPrefix(prefix) { return message }
        }
        return nil
    }

    /// The next datagram, or nil after `timeout` seconds.
    func receive(timeout: Double = 5) -> String? {
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
    }
}

@Suite struct SystemdNotifierTests {
    @Test func sendsEachMessageAsOneDatagram() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "4000000"])
        #expect(notifier.watchdogInterval == .seconds(2))
        notifier.ready(status: "idle\nSTOPPING=1")
        // A newline in the status cannot smuggle in another assignment. READY gives the unit's own
        // watchdog time again (a restart in place lengthens it while the kiosk starts).
        #expect(socket.receive() == "READY=1\nSTATUS=idle STOPPING=1\nWATCHDOG_USEC=4000000")
        notifier.reloading(status: "restarting")
        #expect(socket.receive() == "RELOADING=1\nSTATUS=restarting\nWATCHDOG_USEC=90000000")
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1")
        notifier.stopping(status: "stopping")
        #expect(socket.receive() == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func abstractSocketNames() throws {
        let socket = try NotifySocket(abstract: true)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path])
        notifier.status("recording")
        #expect(socket.receive() == "STATUS=recording")
        #expect(notifier.watchdogInterval == nil)
    }

    /// A manager that reads slowly never stops the kiosk: once its queue is full (10 datagrams,
    /// net.unix.max_dgram_qlen), pings and status lines are dropped at once and READY/STOPPING give
    /// up after a moment. (Before, sendto blocked: the kiosk's two cooperative threads stuck in it
    /// and nothing answered, which a CI run caught as a kiosk that neither recorded nor stopped.)
    @Test(.timeLimit(.minutes(1))) func aFullQueueNeverBlocksTheSender() throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "1000000"])
        let sent = (0..<40).map { _ in notifier.send("WATCHDOG=1", wait: false) }
        #expect(sent.contains(true) && sent.last == false, "\(sent)")
        notifier.watchdog()
        notifier.status("idle")
        #expect(notifier.send("STOPPING=1", wait: true) == false)
        // What got through is whole and in order.
        #expect(socket.receive() == "WATCHDOG=1")
    }

    @Test func watchdogMeantForAnotherProcessOrNoSocketIsOff() {
        let other = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "\(getpid() + 1)"])
        #expect(other.watchdogInterval == nil)
        let mine = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "\(getpid())"])
        #expect(mine.watchdogInterval == .milliseconds(500))
        let none = SystemdNotifier(environment: ["WATCHDOG_USEC": "1000000"])
        #expect(none.watchdogInterval == nil)
        #expect(none.send("READY=1") == false)
    }
}

@Suite struct KioskSettingsTests {
    /// An empty configuration file, so only `flags` and `environment` count.
    static let emptyConfig: String = {
        let path = NSTemporaryDirectory() + "recorder-empty-\(UUID().uuidString).conf"
        FileManager.default.createFile(atPath: path, contents: Data())
        return path
    }()

    func settings(_ flags: [String: String], environment: [String: String] = [:]) throws(RecorderError) -> KioskSettings {
        try KioskSettings(try RecorderConfiguration(flags: flags, configFile: Self.emptyConfig, environment: environment, settings: .withKiosk))
    }

    @Test func defaultsAndListenForms() throws {
        let plain = try settings([:])
        #expect(plain.host == "127.0.0.1" && plain.port == 8080 && plain.seconds == 15 && plain.countdown == 3)
        #expect(plain.device == nil && plain.token == nil)
        #expect(KioskSettings.parseListen("[::1]:9000")! == ("::1", 9000))
        #expect(KioskSettings.parseListen("localhost:1")! == ("localhost", 1))
        for bad in ["8080", "host:", "host:0", "host:70000", "[::1]9000", ":80"] {
            #expect(KioskSettings.parseListen(bad) == nil, "\(bad)")
        }
        #expect { try settings(["kiosk.listen": "nonsense"]) } throws: { error in
            (error as? RecorderError) == ConfigurationProblem("the command line", .badValue(key: "kiosk.listen", value: "nonsense", rule: .listen))
        }
    }

    /// The Host check (DNS rebinding) reads an IPv6 literal whole: "[::1].evil.example" is a name
    /// a rebinding page controls, not an address, as is anything after "]" but a port.
    @Test func hostCheckParsesAddressLiterals() throws {
        let kiosk = try settings(["kiosk.hosts": "booth.example"])
        for good in ["[::1]:8080", "[::1]", "[2001:db8::7]:80", "[::ffff:192.168.1.2]", "127.0.0.1:8080", "192.168.1.2", "localhost:8080",
                     "booth.example", "BOOTH.example.:80", "localhost:"] {
            #expect(kiosk.answers(toHost: good), "\(good)")
        }
        for bad in ["[x].evil.example", "[::1].evil.example", "[::1]x", "[::1]:80.evil.example", "[::1]:8o", "[evil.example]", "[::1",
                    "[fe80::1%eth0]", "[]", "evil.example", "1.2.3.4.evil.example", "999.1.1.1", "127.0.0.1:80:80", "localhost:http"] {
            #expect(!kiosk.answers(toHost: bad), "\(bad)")
        }
    }

    /// kiosk.proxy_socket: off by default; a full path short enough for a Unix socket, or refused (78).
    @Test func proxySocketSetting() throws {
        #expect(try settings([:]).proxySocket == nil)
        #expect(try settings(["kiosk.proxy_socket": "off"]).proxySocket == nil)
        #expect(try settings(["kiosk.proxy_socket": "/run/recorder/proxy.sock"]).proxySocket == "/run/recorder/proxy.sock")
        for bad in ["proxy.sock", "/run/recorder/", "/" + String(repeating: "x", count: 107)] {
            #expect { try settings(["kiosk.proxy_socket": bad]) } throws: { error in
                (error as? RecorderError)?.failure(as: KioskProblem.self)?.caseName.hasPrefix("proxySocket") == true
            }
        }
    }

    @Test func kioskShotsAreMadeAsTheShootSettingsSay() throws {
        let kiosk = try settings(["kiosk.device": "testsrc", "kiosk.seconds": "7"],
                                 environment: ["RECORDER_SHOOT_SIZE": "320x240", "RECORDER_SHOOT_FPS": "15", "RECORDER_SHOOT_PRESET": "ultrafast",
                                               "RECORDER_SHOOT_CRF": "30", "RECORDER_SHOOT_MIN_SECONDS": "2", "RECORDER_AUDIO_DEVICE": "none"])
        let request = kiosk.shotRequest()
        // The kiosk's own camera and length, the shoot.* settings for the rest.
        #expect(request.device == "testsrc" && request.seconds == 7)
        #expect(request.capture.size == FrameSize(width: 320, height: 240) && request.capture.frameRate == FrameRate(15))
        #expect(request.encoder.preset == "ultrafast" && request.encoder.crf == 30 && request.minimumSeconds == 2)
        #expect(request.audio == .none)
        #expect(kiosk.shotRequest(seconds: 3).seconds == 3)
    }

    @Test func previewIdleSetting() throws {
        #expect(try settings([:]).previewIdleSeconds == 10)
        let kiosk = try settings(["kiosk.preview_idle_seconds": "30"])
        #expect(kiosk.previewIdleSeconds == 30)
        #expect { try settings(["kiosk.preview_idle_seconds": "0"]) } throws: { error in
            (error as? RecorderError)?.failure(as: ConfigurationProblem.self).map {
                if case .badValue("kiosk.preview_idle_seconds", "0", _) = $0.issue { true } else { false }
            } == true
        }
    }

    @Test func triggerSettings() throws {
        #expect(try settings([:]).trigger == nil)
        #expect(try settings(["kiosk.trigger": "auto"]).trigger == .auto(matching: ["button", "switch", "pedal", "foot"]))
        #expect(try settings(["kiosk.trigger": "/dev/input/by-id/usb-x-event-kbd"]).trigger == .device("/dev/input/by-id/usb-x-event-kbd"))
        #expect { try settings(["kiosk.trigger": "event3"]) } throws: { error in
            (error as? RecorderError)?.failure(as: KioskProblem.self).map { if case .triggerNotAPath("event3", _) = $0 { true } else { false } } == true
        }
        #expect { try settings(["kiosk.trigger": "auto", "kiosk.trigger_match": " | "]) } throws: { error in
            (error as? RecorderError)?.failure(as: KioskProblem.self).map { if case .triggerWithoutWords = $0 { true } else { false } } == true
        }
    }

    @Test func beyondLoopbackNeedsAToken() throws {
        do {
            _ = try settings(["kiosk.listen": "0.0.0.0:8080"])
            Issue.record("a non-loopback address without a token must be refused")
        } catch {
            #expect(error == KioskProblem.exposedWithoutToken(listen: "0.0.0.0:8080"), "\(error)")
        }
        #expect { try settings(["kiosk.listen": "0.0.0.0:8080", "kiosk.token": "short"]) } throws: { error in
            (error as? RecorderError)?.failure(as: ConfigurationProblem.self).map {
                if case .weakToken("kiosk.token", _) = $0.issue { true } else { false }
            } == true
        }
        // Fewer than 128 bits is refused at start: 20 hex digits (80 bits), a long repeated pattern.
        for weak in ["0123456789abcdef0123", String(repeating: "ab", count: 40), "Passw0rd!Passw0rd!"] {
            #expect { try settings(["kiosk.listen": "0.0.0.0:8080"], environment: ["RECORDER_KIOSK_TOKEN": weak]) } throws: { error in
                (error as? RecorderError)?.failure(as: ConfigurationProblem.self).map {
                    if case .weakToken("kiosk.token", .tooEasy) = $0.issue { $0.location == "RECORDER_KIOSK_TOKEN" } else { false }
                } == true
            }
        }
        // What the advice makes passes, + and / included; so does `openssl rand -hex 16` (128 bits).
        let base64 = "Xk3+q9/Lw2ZtR8vB0aYcN1pE4sHfJ6uD"
        let open = try settings(["kiosk.listen": "0.0.0.0:8080"], environment: ["RECORDER_KIOSK_TOKEN": base64])
        #expect(open.token == base64)
        #expect(try settings(["kiosk.listen": "0.0.0.0:8080", "kiosk.token": "9f86d081884c7d659a2feaa0c55ad015"]).token != nil)
        #expect(TokenStrength.estimatedBits(base64) >= 190 && TokenStrength.estimatedBits("0123456789abcdef0123") == 80)
    }

    @Test func twoRolesTwoTokens() throws {
        let booth = "booth-Qh7vK2mZ9xR4tW8pL3nB6yF1"
        let both = try settings(["kiosk.listen": "0.0.0.0:8080", "kiosk.token": "operator-Jd8sH3kL9qW2eR5tY7uI0pA4", "kiosk.booth_token": booth])
        #expect(both.boothToken == booth)
        // The same token twice would give the booth the operator's powers.
        #expect { try settings(["kiosk.token": booth, "kiosk.booth_token": booth]) } throws: { error in
            (error as? RecorderError) == KioskProblem.sameTokens
        }
        #expect { try settings(["kiosk.booth_token": booth]) } throws: { error in
            (error as? RecorderError) == KioskProblem.boothTokenWithoutOperatorToken
        }
    }

    /// `--set kiosk.token_file=` (empty) is no file, as an empty token is no token: it undoes the
    /// configuration file's, and is not read as a file without a name.
    @Test func anEmptyTokenFileSettingIsNoFile() throws {
        let none = try settings(["kiosk.token_file": "", "kiosk.booth_token_file": ""])
        #expect(none.token == nil && none.boothToken == nil)
    }

    @Test func tokenFromSystemdCredentials() throws {
        let dir = NSTemporaryDirectory() + "creds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("  from-a-credential-0123456789\n".utf8).write(to: URL(fileURLWithPath: dir + "/kiosk-token"))
        let fromCredential = try settings(["kiosk.listen": "0.0.0.0:8080"], environment: ["CREDENTIALS_DIRECTORY": dir])
        #expect(fromCredential.token == "from-a-credential-0123456789")
        // An empty credential (the unit's default file) means no token, which loopback allows.
        try Data().write(to: URL(fileURLWithPath: dir + "/kiosk-token"))
        #expect(try settings([:], environment: ["CREDENTIALS_DIRECTORY": dir]).token == nil)
    }

    /// A token file others can read is refused, as the S3 credentials file is; systemd's private
    /// credential directory is trusted whatever the mode.
    @Test func aTokenFileReadableByOthersIsRefused() throws {
        let dir = NSTemporaryDirectory() + "token-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/kiosk-token"
        try Data("a-token-for-the-tests-0123456789\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        do {
            _ = try settings(["kiosk.token_file": file])
            Issue.record("a token file at mode 0644 must be refused")
        } catch {
            #expect(error == KioskProblem.tokenFileShared(role: "operator", path: file, mode: 0o644), "\(error)")
        }
        chmod(file, 0o600)
        #expect(try settings(["kiosk.token_file": file]).token == "a-token-for-the-tests-0123456789")
        chmod(file, 0o644)
        #expect(try settings([:], environment: ["CREDENTIALS_DIRECTORY": dir]).token == "a-token-for-the-tests-0123456789")
    }

    /// Server-sent events carry a rising `id:` and their JSON has sorted keys, as every answer does.
    @Test func eventsHaveIDsAndSortedKeys() async throws {
        struct Sample: Encodable { var zeta = 1; var alpha = "a/b" }
        let hub = EventHub()
        let stream = hub.subscribe().stream
        hub.publish("state", value: Sample())
        hub.publish("outbox", value: Sample())
        var frames: [String] = []
        for await buffer in stream {
            frames.append(String(buffer: buffer))
            if frames.count == 3 { break }
        }
        #expect(frames[1] == "id: 1\nevent: state\ndata: {\"alpha\":\"a/b\",\"zeta\":1}\n\n", "\(frames[1])")
        #expect(frames[2].hasPrefix("id: 2\nevent: outbox\n"), "\(frames[2])")
    }

    @Test func ranges() {
        #expect(ByteRange.parse("bytes=0-9", size: 100) == 0...9)
        #expect(ByteRange.parse("bytes=90-", size: 100) == 90...99)
        #expect(ByteRange.parse("bytes=-5", size: 100) == 95...99)
        #expect(ByteRange.parse("bytes=-500", size: 100) == 0...99)
        #expect(ByteRange.parse("bytes=50-5000", size: 100) == 50...99)
        for bad in ["bytes=100-", "bytes=5-1", "bytes=0-1,5-6", "items=0-1", "bytes=-0", "bytes=x-1"] {
            #expect(ByteRange.parse(bad, size: 100) == nil, "\(bad)")
        }
    }

    /// The page templates are filled in one pass: a value is never searched for placeholders, so a
    /// guest's caption saying {{video}} stays the guest's words; an unknown placeholder is left.
    @Test func pageTemplatesAreFilledInOnePass() {
        let filled = PageText.fill("<p>{{caption}}</p><video src=\"{{video}}\">{{unknown}}{{", ["caption": "{{video}} &amp; {{caption}}", "video": "/s/t/video.mp4"])
        #expect(filled == "<p>{{video}} &amp; {{caption}}</p><video src=\"/s/t/video.mp4\">{{unknown}}{{")
        // Every page file the kiosk serves was embedded (its own, and the share pages' it serves
        // too), and every placeholder of the share pages is filled.
        for name in ["guest.html", "operator.html", "login.html", "common.js", "guest.js", "guest-logic.js"] {
            #expect(KioskService.EmbeddedPages.files[name]?.isEmpty == false, "\(name)")
        }
        for name in ["share.html", "share-gone.html", "share-erase.html", "gallery.html", "gallery-reel.html", "gallery.js", "gallery-logic.js",
                     "gallery.css", "plain.css", "dates.js", "share.js"] {
            #expect(ShareServer.EmbeddedPages.files[name]?.isEmpty == false, "\(name)")
        }
        for name in ["plain.css", "dates.js", "share.js", "gallery.js", "guest.js"] { #expect(PageFiles.asset(name) != nil, "\(name)") }
        for kind in [SharePage.Unopened.gone, .notYet] {
            let page = SharePage.unopened(kind, language: "de")
            #expect(page.contains("lang=\"de\"") && !page.contains("{{"))
        }
    }
}

/// What a crowd can hold, counted by who it is: the booth's own places, phones named by the proxy,
/// the proxy's connections, and when a crowd has left.
@Suite struct ClientLimitsTests {
    static func address(_ ip: String) -> ClientAddress { ClientAddress(try? SocketAddress(ipAddress: ip, port: 4000)) }

    /// The booth's screen has places of its own: a crowd holding every other one takes none of them.
    @Test func theBoothsScreenHasPlacesACrowdCannotTake() throws {
        let slots = ClientSlots("videos", total: 4, perClient: 2, booth: 2)
        let booth = Self.address("127.0.0.1")
        let crowd = (1...4).compactMap { slots.take(Self.address("192.168.1.\($0)")) }
        #expect(crowd.count == 4 && slots.take(Self.address("192.168.1.9")) == nil)
        // This machine without a token is one of the crowd: refused as well.
        #expect(slots.take(booth) == nil)
        let own = [slots.take(booth, boothScreen: true), slots.take(booth, boothScreen: true)]
        #expect(own.allSatisfy { $0 != nil } && slots.take(booth, boothScreen: true) == nil)
        #expect(slots.inUse == 6)
        _ = consume own
        #expect(slots.inUse == 4 && slots.take(booth, boothScreen: true) != nil)
        _ = consume crowd
    }

    /// The phone the proxy names: any other machine's address (an IPv6 one by its /64), never this
    /// machine's; without a name, one of the proxy's.
    @Test func aPhoneTheProxyNamesIsCountedAsAnyOtherMachine() {
        let phone = ClientAddress(forwarded: "203.0.113.5")
        #expect(phone.key == "203.0.113.5" && !phone.isLoopback)
        let claimed = ClientAddress(forwarded: "127.0.0.1")
        #expect(claimed.key == "127.0.0.1" && !claimed.isLoopback)
        #expect(ClientAddress(forwarded: "2001:db8:1:2::10") == ClientAddress(forwarded: "2001:db8:1:2:ffff::20"))
        #expect(ClientAddress(forwarded: "2001:db8:1:2::10").key == "2001:db8:1:2::/64")
        for nameless in [nil, "", "booth.example", "1.2.3.4, 5.6.7.8", "::1%lo"] {
            #expect(ClientAddress(forwarded: nameless) == .proxy, "\(nameless ?? "nil")")
        }
    }

    /// The proxy's connections count toward the total but no address's share; loopback never counts.
    @Test func theProxysConnectionsCountTowardTheTotalOnly() {
        let limits = ConnectionLimits(total: 16, perClient: 4)
        #expect((1...16).allSatisfy { _ in limits.open(.proxy) })
        #expect(!limits.open(.proxy) && !limits.open(Self.address("192.168.1.7")))
        #expect(limits.open(Self.address("127.0.0.1")))
        limits.close(.proxy)
        #expect(limits.open(Self.address("192.168.1.7")))
    }

    /// A crowd that left is found once, when 32 or more of the connections seen have closed.
    @Test func aCrowdThatLeftIsFoundOnce() {
        let limits = ConnectionLimits(total: 512, perClient: 512)
        let phone = Self.address("192.168.1.7")
        for _ in 0..<40 { #expect(limits.open(phone)) }
        #expect(!limits.crowdLeft())
        for _ in 0..<31 { limits.close(phone) }
        #expect(!limits.crowdLeft())
        limits.close(phone)
        #expect(limits.crowdLeft() && !limits.crowdLeft())
    }
}
