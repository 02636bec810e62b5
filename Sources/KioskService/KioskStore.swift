import Logging
import Settings
import Shooting
import Publishing
import Library
import SystemSupport
import KioskWords
import KioskState
import Failures
import Posting

/// The posting side of a kiosk as its configuration makes it, built once at start (and failing
/// then, not at the first post, when the store is misconfigured): the outbox, the share links,
/// the gallery over the store, the enqueuer, the guests' mail, and the drain that sends posts up.
struct KioskStore {
    let outbox: Outbox
    let share: ShareLinks
    let library: KioskLibrary
    let enqueuer: PostEnqueuer
    private let backend: PostStore
    private let configuration: RecorderConfiguration
    private let logger: Logger

    init(settings: KioskSettings, configuration: RecorderConfiguration, logger: Logger) throws(RecorderError) {
        self.configuration = configuration
        self.logger = logger
        outbox = Outbox(root: configuration.outboxDirectory)
        try outbox.prepare()
        let backend = try configuration.makeBackend()
        self.backend = backend
        // A post sent from here links to this kiosk's share page when the store gives no link of its
        // own: at the address a phone on the same network opens (the first non-loopback one).
        share = try ShareLinks(configuration, pageBase: settings.pageAddresses.first)
        // A link to this machine's loopback opens nothing on a phone: the booth shows no code for it.
        if let example = share.example(store: backend), !ShareLinks.opensOnPhones(example) {
            logger.notice("share links point at this machine's loopback address (\(example)): a guest's phone cannot open them, so the booth shows no QR code and asks guests to see the staff. Set share.base_url to an address phones reach (the booth's nginx: docs/kiosk.md; its own Wi-Fi: docs/venue.md), or listen on the network (kiosk.listen = 0.0.0.0:\(settings.port), with kiosk.token_file).")
        }
        let enqueuer = PostEnqueuer(workspace: settings.workspace, outbox: outbox, configuration: configuration)
        self.enqueuer = enqueuer
        library = KioskLibrary(store: backend, cache: VideoCache(settings: try configuration.videoCacheSettings()), share: share,
                               outbox: outbox, claimsDirectory: settings.stateDirectory + "/claims",
                               deleted: { id in enqueuer.postDeleted(id: id) })
    }

    /// Guests' mail (`mail.*` set): the outbox's mail queue and the thread that sends it, each mail
    /// once its post is in the store.
    func mail(_ settings: MailSettings, language: String, rate: MailRate, metrics: KioskMetrics, events: EventStream,
              clock: any RecorderClock) throws(RecorderError) -> KioskMail {
        let policy = try configuration.retryPolicy(maximumAttempts: nil)
        return KioskMail(settings: settings,
                         delivery: MailDelivery(queue: MailQueue(outboxRoot: outbox.root), outbox: outbox, settings: settings, store: backend,
                                                policy: policy, retention: share.retention,
                                                expiresText: { MailWording.expires($0, language: language) }, now: { clock.date }),
                         rate: rate, metrics: metrics, logger: logger, events: events, clock: clock)
    }

    /// The drain: the kiosk's background `outbox flush`, its events counted, told to the pages and
    /// the journal; each upload wakes the guests' `mail`, whose mails wait for their post.
    func drain(metrics: KioskMetrics, events: EventStream, mail: KioskMail?, history: BoothHistory,
               clock: any RecorderClock) throws(RecorderError) -> OutboxDrain {
        let (outbox, share, configuration, logger) = (self.outbox, self.share, self.configuration, self.logger)
        let policy = try configuration.retryPolicy(maximumAttempts: nil)
        let onePerFlush = try configuration.retryPolicy(maximumAttempts: 1)
        return OutboxDrain(
            outbox: outbox, policy: policy, clock: clock,
            makeUploader: { willSend throws(RecorderError) in
                OutboxUploader(outbox: outbox, backend: try configuration.makeBackend(), policy: onePerFlush,
                               share: share, poster: Posters.jpeg, log: { logger.info("\($0.words)") }, willSend: willSend)
            },
            observer: { event in
                metrics.record(event)
                switch event {
                case .changed: events.announce("outbox")
                case .uploaded(let receipt, _):
                    history.posted(at: clock.date)
                    logger.notice("posted \(receipt.id): \(receipt.videoURL)")
                    mail?.drain.wake()
                case .failed(let error): logger.warning("upload failed, will retry: \(error.text())")
                case .retrying(let id): logger.info("sending post \(id) again")
                }
            })
    }
}
