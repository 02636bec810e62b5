import Foundation
import Glibc
@testable import KioskService
import Preflight
import Shooting
import StorageUpload
import Testing
@testable import KioskWords
import MediaValues
import StoreValues
import PreflightValues

/// The operator's words for the preflight (the operator page's list, `recorder doctor`'s table):
/// every finding says what was found, and every error and warning what to do; a few lines as a
/// person reads them.
struct PreflightWordingTests {
    static let facts = CameraFacts(device: "/dev/video0", card: "C920", driver: "uvcvideo", format: "MJPEG", width: 1280, height: 720,
                                   framesPerSecond: 30, emulated: false, formats: ["MJPEG", "YUYV"], firstFrameMilliseconds: 420)
    static let local = StoreDestination.local(path: "/var/lib/recorder/store")

    /// One of each finding (each kind of trouble, fault and state at least once).
    static let findings: [PreflightFinding] = [
        .configurationAccepted(file: "/etc/recorder/recorder.conf"), .configurationAccepted(file: nil),
        .configurationRefused(file: "/etc/recorder/recorder.conf", problem: "the operator's token is too easy to guess"),
        .cameraWorks(facts: facts), .cameraLive(device: "/dev/video0", width: 640, height: 360, pictureAgeMilliseconds: 40, recording: true),
        .cameraRecording(device: "/dev/video0", frames: 120, dropped: 2),
        .noCamera(setting: "kiosk.device"), .testPattern(setting: "kiosk.device", value: "testsrc"),
        .cameraNoPicture(device: "/dev/video0", state: "idle"),
        .soundOff(setting: "audio.device"), .testBeep, .noMicrophone(camera: "/dev/video0", setting: "audio.device"),
        .microphoneHeard(device: "hw:CARD=C920,DEV=0", seconds: 3, loudestDBFS: -12.5, clippedPercent: 0),
        .microphoneSilent(device: "hw:CARD=C920,DEV=0", seconds: 3, loudestDBFS: -70, floorDBFS: -45),
        .microphoneClipping(device: "hw:CARD=C920,DEV=0", seconds: 3, loudestDBFS: 0, clippedPercent: 80),
        .microphoneNotHeard(device: "hw:CARD=C920,DEV=0", state: "countdown"),
        .noButton(setting: "kiosk.trigger"), .buttonReady(device: "/dev/input/event5", name: "LinTx Big Button"),
        .buttonAbsent(choice: "auto (a name with button)", setting: "kiosk.trigger"),
        .buttonRefused(device: "/dev/input/event5", why: "no permission to read /dev/input/event5"), .buttonTaken(device: "/dev/input/event5"),
        .diskRoom(hoursLeft: 12.34, bitrateKbps: 4000, constantQuality: true, shotBytes: 16 << 20,
                  places: [DiskPlace(role: .workspace, path: "/var/lib/recorder/workspace", freeBytes: 30 << 30, keepsVideos: false),
                           DiskPlace(role: .outbox, path: "/var/lib/recorder/outbox", freeBytes: 22 << 30, keepsVideos: true)]),
        .diskRoom(hoursLeft: 0.4, bitrateKbps: 4000, constantQuality: false, shotBytes: 16 << 20,
                  places: [DiskPlace(role: .outbox, path: "/mnt/usb/outbox", freeBytes: 700 << 20, keepsVideos: true)]),
        .diskRoom(hoursLeft: 9, bitrateKbps: 4000, constantQuality: false, shotBytes: 16 << 20,
                  places: [DiskPlace(role: .workspace, path: "/run/recorder", freeBytes: 1 << 20, keepsVideos: false)]),
        .diskRoom(hoursLeft: 9, bitrateKbps: 4000, constantQuality: false, shotBytes: 16 << 20,
                  places: [DiskPlace(role: .store, path: "/mnt/gone", freeBytes: nil, keepsVideos: true)]),
        .clockSynchronised(now: "2026-11-27T10:00:00Z"), .clockNotSynchronised(now: "2026-11-27T10:00:00Z"),
        .noTimeService(now: "2026-11-27T10:00:00Z"), .clockBeforeRelease(now: "1970-01-01T00:05:00Z", release: "2026-11-26T00:00:00Z"),
        .storeRoundTrip(destination: local, bytes: 90, milliseconds: 12),
        .storeFailed(destination: local, step: .write, fault: .local(errno: ENOENT)),
        .storeFailed(destination: local, step: .write, fault: .local(errno: ENOSPC)),
        .storeFailed(destination: local, step: .write, fault: .local(errno: EACCES)),
        .storeFailed(destination: local, step: .read, fault: .network(curlCode: 7)),
        .storeFailed(destination: local, step: .write, fault: .http(status: 503, code: "SlowDown")),
        .storeFailed(destination: local, step: .write, fault: .http(status: 404, code: "NoSuchBucket")),
        .storeFailed(destination: local, step: .write, fault: .denied), .storeFailed(destination: local, step: .write, fault: .missing),
        .storeFailed(destination: local, step: .write, fault: .configuration(.noCredentials)),
        .storeFailed(destination: local, step: .verify, fault: .mismatch),
        .storeUnconfigured(problem: "backend = s3 needs s3.bucket"), .probeLeft(destination: local, key: "preflight/ab.txt", fault: .denied),
        .outboxEmpty(path: "/var/lib/recorder/outbox"),
        .outboxQueued(path: "/var/lib/recorder/outbox", depth: 3, oldestQueuedAt: "2026-11-27T08:00:00Z", oldestAgeSeconds: 7300,
                      lastFailure: StorageError(.transport(code: 7), .cannotConnect(host: "s3.example.com", detail: "Couldn't connect to server"), retryable: true),
                      lastError: nil, elsewhere: 1),
        .outboxUnreadable(path: "/var/lib/recorder/outbox", entries: ["/var/lib/recorder/outbox/queue/x"]),
        .outboxUnwritable(path: "/var/lib/recorder/outbox", errno: EROFS),
        .tokens(operatorToken: .strong(bits: 256, origin: "/etc/recorder/kiosk-token"), boothToken: .strong(bits: 256, origin: "/etc/recorder/kiosk-booth-token"),
                listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .weak(bits: 72, origin: "flag"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .notPrintable(origin: "flag"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .readableByOthers(path: "/etc/recorder/kiosk-token", mode: "644"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .unreadable(path: "/etc/recorder/kiosk-token"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .strong(bits: 256, origin: "flag"), boothToken: .sameAsOperator, listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .missing, boothToken: .missing, listen: "0.0.0.0:8080", beyondLoopback: true),
        .tokens(operatorToken: .missing, boothToken: .strong(bits: 200, origin: "flag"), listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .missing, boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false),
        .tokens(operatorToken: .strong(bits: 256, origin: "flag"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false),
        .shareTemplate(url: "http://192.168.1.20/s/{token}", host: "192.168.1.20"),
        .shareUnreachable(url: "http://127.0.0.1/s/{token}", host: "127.0.0.1", setting: "share.base_url"),
        .shareUnreachable(url: "http://127.0.0.1:8080/s/{token}", host: "127.0.0.1", setting: "kiosk.listen"),
        .shareUnreachable(url: "http://127.0.0.1:8333", host: "127.0.0.1", setting: "s3.endpoint"),
        .shareNotOnBoothWifi(url: nil, setting: "share.base_url"), .sharePresigned(endpoint: "https://s3.example.com"),
        .sharePage(address: "http://192.168.1.20:8080"),
        .noCertificates(directory: "/etc/recorder/tls"),
        .certificates([.valid(path: "/etc/recorder/tls/booth.crt", subject: "/CN=booth.example.com", notAfter: "2027-11-01T00:00:00Z", daysLeft: 339)]),
        .certificates([.expiring(path: "/etc/recorder/tls/share.crt", subject: "/CN=share.example.com", notAfter: "2026-12-02T00:00:00Z", daysLeft: 4)]),
        .certificates([.expired(path: "/etc/recorder/tls/booth.crt", subject: "", notAfter: "2025-02-01T00:00:00Z", daysAgo: 664),
                       .unreadable(path: "/etc/recorder/tls/x.crt")]),
        .certificates([.notYetValid(path: "/etc/recorder/tls/booth.crt", subject: "", notBefore: "2027-01-01T00:00:00Z")]),
        .wifiNotConfigured(setting: "kiosk.wifi_ssid"), .wifiMatches(file: "/etc/recorder/wifi/hostapd.conf", name: "Our booth", security: "wpa2"),
        .wifiDisagrees(file: "/etc/recorder/wifi/hostapd.conf", fields: [.name(configured: "Our booth", file: "recorder-booth"),
                                                                          .security(configured: "wpa2", file: "open"), .password]),
        .hostapdUnreadable(file: "/etc/recorder/wifi/hostapd.conf"), .hostapdMissing(file: "/etc/recorder/wifi/hostapd.conf"),
        .serviceRunning(unit: "recorder.service", enabled: true, restarts: 0), .serviceRunning(unit: "recorder.service", enabled: false, restarts: 2),
        .serviceDown(unit: "recorder.service", state: "failed", subState: "failed"), .serviceNotInstalled(unit: "recorder.service"),
        .noSystemd, .serviceIsThis(pid: 812, underSystemd: true), .timedOut(seconds: 25),
    ] + [DeviceTrouble.notThere, .permission(group: "video"), .busy, .notACaptureDevice, .disconnected, .stalled(seconds: 8), .unsupportedFormat,
         .driverRefused(operation: "VIDIOC_STREAMON", errno: EIO)].flatMap { trouble in
        [PreflightFinding.cameraUnusable(device: "/dev/video0", trouble: trouble), .microphoneUnusable(device: "hw:CARD=C920,DEV=0", trouble: trouble)]
    }

    @Test func everyFindingIsSaidAndEveryProblemHasAFix() {
        for finding in Self.findings {
            let words = PreflightWording.words(PreflightCheck(.camera, finding))
            #expect(!words.what.isEmpty, "\(finding) says nothing")
            #expect(!words.what.contains("Optional("), "\(words.what)")
            if finding.status == .error || finding.status == .warning {
                #expect(words.fix?.isEmpty == false, "\(finding) (\(finding.status)) says nothing to do")
            }
        }
        // Every id has its name.
        #expect(Set(PreflightCheck.ID.allCases.map(PreflightWording.title)).count == PreflightCheck.ID.allCases.count)
    }

    /// Snapshots of lines as the operator reads them.
    @Test func linesAsTheOperatorReadsThem() {
        func said(_ finding: PreflightFinding) -> [String] {
            let words = PreflightWording.words(PreflightCheck(.camera, finding))
            return [words.what] + (words.fix.map { [$0] } ?? [])
        }
        #expect(said(.cameraWorks(facts: Self.facts)) == ["C920 (/dev/video0): MJPEG 1280x720 at 30 fps, the first picture in 0.4 s"])
        #expect(said(.shareUnreachable(url: "http://127.0.0.1/s/{token}", host: "127.0.0.1", setting: "share.base_url")) == [
            "share.base_url = http://127.0.0.1/s/{token} points at 127.0.0.1, this machine's own loopback: a guest's phone cannot open it",
            "set share.base_url to an address phones on the guests' network reach, e.g. http://BOOTH-ADDRESS/s/{token} behind the shipped nginx (docs/sharing.md)"])
        #expect(said(.shareUnreachable(url: "http://127.0.0.1:8080/s/{token}", host: "127.0.0.1", setting: "kiosk.listen")) == [
            "share links point at the kiosk's own page, http://127.0.0.1:8080/s/{token}, on 127.0.0.1, this machine's own loopback (kiosk.listen): a guest's phone cannot open them",
            "set share.base_url to an address phones on the guests' network reach, e.g. http://BOOTH-ADDRESS/s/{token} behind the shipped nginx (docs/sharing.md)"])
        #expect(said(Self.findings[Self.findings.firstIndex { if case .diskRoom(0.4, _, _, _, _) = $0 { true } else { false } }!]) == [
            "room for about 24 min of recording at 4000 kbit/s (outbox: 700 MiB free on /mnt/usb/outbox)",
            "free space there (videos already in the store, old shots), point outbox at a bigger disk, or lower shoot.bitrate"])
        #expect(said(.microphoneSilent(device: "hw:CARD=C920,DEV=0", seconds: 3, loudestDBFS: -70, floorDBFS: -45)) == [
            "hw:CARD=C920,DEV=0 heard nothing above -45 dBFS in 3 s (loudest -70 dBFS)",
            "speak or clap while it listens; if it stays silent, unmute it and turn its gain up (alsamixer), or choose another audio.device"])
        #expect(said(.wifiDisagrees(file: "/etc/recorder/wifi/hostapd.conf", fields: [.name(configured: "Our booth", file: "recorder-booth"), .password])).first
            == "kiosk.wifi_* and /etc/recorder/wifi/hostapd.conf disagree on the name (\"Our booth\" here, \"recorder-booth\" there), the password: a phone that reads the Wi-Fi code does not join")
        #expect(said(.certificates([.expiring(path: "/etc/recorder/tls/share.crt", subject: "/CN=share.example.com", notAfter: "2026-12-02T00:00:00Z", daysLeft: 4)])) == [
            "share.crt (/CN=share.example.com) expires in 4 day(s), 2026-12-02T00:00:00Z",
            "renew it and reload nginx (systemctl reload nginx): phones refuse an expired certificate"])
        #expect(said(.tokens(operatorToken: .weak(bits: 72, origin: "flag"), boothToken: .missing, listen: "127.0.0.1:8080", beyondLoopback: false)) == [
            "the operator's is too easy to guess (about 72 bits, at least 128 needed; from flag); the booth's is not set",
            "make one: head -c 24 /dev/urandom | base64 > /etc/recorder/kiosk-token"])
        // With no camera: what to plug in, and how to try the booth without one (issue 49).
        #expect(said(.noCamera(setting: "kiosk.device")) == ["no camera found: the booth would record its test pattern",
            "plug the camera in (recorder devices lists cameras), or set kiosk.device to it; to try the booth without one, kiosk.device = testsrc records the test pattern on purpose"])
        #expect(said(.cameraUnusable(device: "/dev/recorder-camera", trouble: .notThere)).last
            == "plug it in, or set kiosk.device to a camera recorder devices lists (kiosk.device = testsrc tries the booth without one)")
        #expect(said(.timedOut(seconds: 25)) == ["did not finish in 25 s: something is stuck", "run the check again; if it stays stuck, the device or the store hangs"])
    }
}

/// The journal's "ready" line says when the kiosk records the test pattern, and why (issue 49: it
/// said "ready" on a booth with no camera, which then recorded the test pattern).
struct ReadyLineTests {
    @Test func theReadyLineSaysTheBoothRecordsTheTestPattern() {
        let addresses = ["http://127.0.0.1:8080/"]
        #expect(StatusReporter.readyLine(addresses: addresses, state: .idle, camera: "/dev/recorder-camera")
                == "ready: http://127.0.0.1:8080/ (idle, ready to shoot)")
        #expect(StatusReporter.readyLine(addresses: addresses, state: .idle, camera: "test pattern")
                == "ready: http://127.0.0.1:8080/ (idle, ready to shoot; it records the test pattern, as kiosk.device = testsrc asks, not a camera)")
        #expect(StatusReporter.readyLine(addresses: addresses, state: .idle, camera: "test pattern (no camera found)")
                == "ready: http://127.0.0.1:8080/ (idle, ready to shoot; no camera found: it records the test pattern (plug one in and restart, or set kiosk.device))")
    }
}
