package import Logging
package import Settings
package import Shooting
package import Publishing
import Library
import KioskWords
package import SystemSupport
package import KioskHTTP
package import KioskState
package import Failures
package import Fleet

/// The kiosk's composition root: builds each of its services from the settings, once, wired to
/// the few others it uses. The daemon runs them (`KioskDaemon`), the router hands each route
/// collection the ones it needs (`KioskAPI.router`), and the tests build the same kiosk through
/// `KioskFixture`. Nothing else holds this whole: no route and no service gets it.
package struct KioskServices: Sendable {
    package let settings: KioskSettings
    package let configuration: RecorderConfiguration
    /// What every timed rule counts by (a test's clock stands still until the test moves it).
    package let clock: any RecorderClock
    /// The kiosk's journal (warnings and errors also go to `problems`).
    package let logger: Logger
    package let notifier: SystemdNotifier
    /// The last warnings and errors, for the operator page.
    package let problems: ProblemLog
    /// What may be open at once: connections, video answers, live mirrors.
    package let limits: KioskLimits
    /// The tokens, the sessions and the throttle on wrong tokens.
    package let access: KioskAccess
    package let manager: CameraManager
    package let drain: OutboxDrain
    /// Guests' mail (`mail.*`), when set: its queue and the thread that sends it.
    package let mail: KioskMail?
    package let events: EventStream
    package let metrics: KioskMetrics
    /// The gallery: the feed and posted videos through the cache.
    package let library: KioskLibrary
    /// `kiosk.prompts`, when set: the question the booth shows now.
    let prompts: PromptDeck?
    package let guests: GuestCoordinator
    package let posting: PostingDesk
    package let preview: LivePreview
    package let button: BoothButton
    package let status: StatusReporter
    package let health: HealthMonitor
    package let retention: RetentionService
    let reels: ReelMaker
    package let overview: OperatorOverview
    /// The operator page's preflight (its last run goes into the heartbeat).
    package let preflight: PreflightService
    /// What the heartbeat remembers: the camera missing since, the last post, the last encoder.
    package let history: BoothHistory
    /// The booth's heartbeat in the store, for the fleet (`fleet.heartbeat_seconds`).
    package let heartbeats: HeartbeatService
    /// Every booth of the store, this one live, for the fleet page (`/fleet`).
    package let fleet: FleetView
    /// `kiosk.on_state`, when set.
    let stateHook: StateHook?
    /// The restart the operator page asks for, to take the settings it saved.
    package let restart: KioskRestart
    /// The operator page's Event section and every setting it shows.
    package let eventSettings: EventSettings

    package init(settings: KioskSettings, configuration: RecorderConfiguration, logger journal: Logger,
                 notifier: SystemdNotifier = SystemdNotifier(), loginThrottle: LoginThrottle? = nil,
                 clock: any RecorderClock = .system, mail mailSettings: MailSettings? = nil) throws(RecorderError) {
        self.settings = settings
        self.configuration = configuration
        self.clock = clock
        self.notifier = notifier
        let problems = ProblemLog()
        self.problems = problems
        // Warnings and errors also go to the operator page's list.
        var logger = journal
        logger.handler = MultiplexLogHandler([journal.handler, problems.handler])
        self.logger = logger
        limits = KioskLimits(settings)
        access = try KioskAccess(settings: settings, throttle: loginThrottle ?? LoginThrottle(clock: clock), clock: clock)
        let store = try KioskStore(settings: settings, configuration: configuration, logger: logger)
        // A shot cut off by a crash or power cut becomes the current shot again, to post or replace.
        for note in settings.workspace.recoverInterrupted().notes { logger.notice("\(OperatorWords.note(note))") }
        manager = CameraManager(workspace: settings.workspace, device: settings.device, previewIdleSeconds: settings.previewIdleSeconds,
                                clock: clock)
        let events = EventStream(), metrics = KioskMetrics()
        (self.events, self.metrics) = (events, metrics)
        let mail = try mailSettings.map { settings_ throws(RecorderError) in
            try store.mail(settings_, language: settings.booth.language,
                           rate: MailRate(perMinute: settings.mailPerMinute, perHour: settings.mailPerHour, clock: clock),
                           metrics: metrics, events: events, clock: clock)
        }
        self.mail = mail
        let history = BoothHistory()
        self.history = history
        drain = try store.drain(metrics: metrics, events: events, mail: mail, history: history, clock: clock)
        library = store.library
        prompts = settings.prompts.map { PromptDeck($0, seconds: settings.promptSeconds, clock: clock) }
        guests = GuestCoordinator(settings: settings, manager: manager, prompts: prompts, events: events, metrics: metrics,
                                  logger: logger, clock: clock)
        posting = PostingDesk(manager: manager, enqueuer: store.enqueuer, drain: drain, shareTokens: library.shareTokens, claims: library.claims,
                              guests: guests,
                              events: events, metrics: metrics, logger: logger)
        preview = LivePreview(manager: manager, settings: settings)
        button = BoothButton(settings.trigger, guests: guests, events: events, logger: logger)
        status = StatusReporter(settings: settings, manager: manager, drain: drain, enqueuer: store.enqueuer, guests: guests,
                                button: button, prompts: prompts)
        health = HealthMonitor(settings: settings, manager: manager, drain: drain, library: library, guests: guests, logger: logger,
                               clock: clock)
        retention = try RetentionService(configuration: configuration, settings: settings, library: library, manager: manager,
                                         outbox: drain.outbox, mail: mail?.drain, events: events, metrics: metrics, logger: logger, clock: clock)
        reels = ReelMaker(library: library, configuration: configuration, logger: logger, clock: clock)
        overview = OperatorOverview(status: status, outbox: drain.outbox, library: library, mail: mail, workspace: settings.workspace.root,
                                    configuration: configuration, problems: problems, metrics: metrics, retention: retention)
        stateHook = settings.stateHook.map { path in StateHook(path: path, log: { [logger] in logger.warning("\($0)") }) }
        preflight = PreflightService.live(settings: settings, configuration: configuration, manager: manager, trigger: button.trigger,
                                          clock: clock.asClock, now: { clock.date })
        heartbeats = try HeartbeatService(
            settings: settings, configuration: configuration,
            parts: .init(run: status.run, status: { [status] in await status.status() }, manager: manager, drain: drain,
                         mailQueue: mail?.queue, problems: problems, preflight: preflight),
            history: history, logger: logger, clock: clock)
        let heartbeats = self.heartbeats
        fleet = FleetView(store: heartbeats.store, own: { await heartbeats.own() }, clock: clock)
        restart = KioskRestart()
        eventSettings = EventSettings(running: configuration, settings: settings, exampleLink: { [library] in $0.example(store: library.feed.store) },
                                      restart: restart, logger: logger, clock: clock)
    }
}
