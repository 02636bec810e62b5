import Foundation
import Hummingbird
import Logging
@testable import Settings
@testable import Publishing
import Testing
@testable import KioskService
import SystemSupport
@testable import Shooting
@testable import KioskHTTP
@testable import KioskState

/// A kiosk on the built-in test pattern with its own temp workspace, outbox and local store, built
/// by the same composition root as the daemon's (`KioskServices`), on a test clock that stands
/// still until a test moves it.
struct KioskFixture {
    let directory: String
    let kiosk: KioskServices
    let clock: TestClock

    /// `mail`: guests' mail on (`mail.*`), as `recorder kiosk` makes it from its settings; `logger`:
    /// the kiosk's journal (a test that reads what was logged hands in its own).
    init(token: String? = nil, boothToken: String? = nil, seconds: Double = 1, countdown: Int = 0, more: [String: String] = [:],
         throttle: LoginThrottle = LoginThrottle(hold: { _ in }), clock: TestClock = TestClock(), directory given: String? = nil,
         mail: MailSettings? = nil, logger: Logger = Logger(label: "test")) throws {
        directory = given ?? NSTemporaryDirectory() + "recorder-kiosk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/recorder.conf"
        try Data().write(to: URL(fileURLWithPath: config))
        var flags = ["outbox": directory + "/outbox", "local.path": directory + "/store", "local.create": "true", "workspace": directory + "/ws",
                     "kiosk.device": "testsrc", "kiosk.seconds": "\(seconds)", "kiosk.countdown_seconds": "\(countdown)",
                     "retry.initial_seconds": "0.1", "retry.max_seconds": "0.5"]
        if let token { flags["kiosk.token"] = token }
        if let boothToken { flags["kiosk.booth_token"] = boothToken }
        flags.merge(more) { $1 }
        let configuration = try RecorderConfiguration(flags: flags, configFile: config, environment: ["HOME": directory], settings: .withKiosk)
        var settings = try KioskSettings(configuration)
        // No time service to ask here unless a test puts a timedatectl of its own at this path.
        settings.timedatectl = directory + "/timedatectl"
        self.clock = clock
        kiosk = try KioskServices(settings: settings, configuration: configuration, logger: logger,
                                  notifier: SystemdNotifier(environment: [:]), loginThrottle: throttle, clock: clock, mail: mail)
    }

    /// Wires the kiosk, starts its event publisher and checks the camera and the booth's service,
    /// as the daemon's services do when they start.
    func start() async {
        await kiosk.wire()
        Task { [kiosk] in await kiosk.events.publish(status: { await kiosk.status.status() }, boothView: { kiosk.status.boothView($0) }) }
        await kiosk.manager.checkCamera()
        await kiosk.health.check()
        kiosk.health.beat()
    }

    /// The button's presses followed, as its service does; `stop` ends it.
    func followButton() -> Task<Void, Never> {
        Task { [kiosk] in await kiosk.button.follow() }
    }

    func remove() {
        kiosk.drain.stop()
        kiosk.mail?.drain.stop()
        kiosk.events.end()
        kiosk.button.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func application() -> some ApplicationProtocol {
        KioskDaemon(kiosk: kiosk).application()
    }

    /// Starts the drain and waits until it has uploaded post `id` (indexed, off the queue), or fails after `seconds`.
    func waitForUpload(_ id: String, seconds: Double = 60) async throws {
        kiosk.drain.start()
        try await until(seconds: seconds, "post \(id) was not uploaded") { kiosk.drain.status.lastUploaded?.id == id }
    }

    /// Polls the manager until `state` (a RecordState name), or fails after `seconds`.
    func waitFor(_ state: String, seconds: Double = 60) async throws {
        try await until(seconds: seconds, "the kiosk did not reach \(state)") { await kiosk.manager.recordState.name == state }
    }

    /// Moves the clock a second at a time until the countdown under way is over (the camera sleeps
    /// on the fixture's clock for each of its seconds).
    func finishCountdown() async throws {
        while case .countdown(let left) = await kiosk.manager.recordState {
            #expect(await clock.waitForSleepers(1), "the countdown does not sleep on the clock")
            clock.advance(by: .seconds(1))
            try await until(seconds: 30, "the countdown did not move on") { await kiosk.manager.recordState != .countdown(remaining: left) }
        }
    }

    /// Polls `done` every 50 ms until it holds, or records `what` and fails after `seconds`.
    func until(seconds: Double = 60, _ what: String, _ done: () async -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            if await done() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(what) in \(seconds) s")
        throw CancellationError()
    }
}
