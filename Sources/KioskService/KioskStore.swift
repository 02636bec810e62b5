import Logging
import Settings
import Shooting
import Publishing
import Library

/// The posting side of a kiosk as its configuration makes it, built once at start (and failing
/// then, not at the first post, when the store is misconfigured): the outbox, the share links,
/// the gallery over the store, the enqueuer, and the drain that sends posts up.
struct KioskStore {
    let outbox: Outbox
    let share: ShareLinks
    let library: KioskLibrary
    let enqueuer: PostEnqueuer
    private let configuration: RecorderConfiguration
    private let logger: Logger

    init(settings: KioskSettings, configuration: RecorderConfiguration, logger: Logger) throws(RecorderError) {
        self.configuration = configuration
        self.logger = logger
        outbox = Outbox(root: configuration.outboxDirectory)
        try outbox.prepare()
        let backend = try configuration.makeBackend()
        // A post sent from here links to this kiosk's share page when the store gives no link of its
        // own: at the address a phone on the same network opens (the first non-loopback one).
        share = try ShareLinks(configuration, pageBase: settings.pageAddresses.first)
        if share.baseURL == nil, KioskSettings.isLoopback(settings.host), !ShareLinks.presigns(backend) {
            logger.notice("share links point at this machine's loopback address (kiosk.listen = \(settings.host):\(settings.port)): a guest's phone cannot open them. Listen on the network (kiosk.listen = 0.0.0.0:\(settings.port), with kiosk.token_file) or set share.base_url.")
        }
        library = KioskLibrary(store: backend, cache: VideoCache(settings: try configuration.videoCacheSettings()), share: share,
                               outbox: outbox, claimsDirectory: settings.stateDirectory + "/claims")
        enqueuer = PostEnqueuer(workspace: settings.workspace, outbox: outbox, configuration: configuration)
    }

    /// The drain: the kiosk's background `outbox flush`, its events counted, told to the pages and
    /// the journal.
    func drain(metrics: KioskMetrics, events: EventStream) throws(RecorderError) -> OutboxDrain {
        let (outbox, share, configuration, logger) = (self.outbox, self.share, self.configuration, self.logger)
        let policy = try configuration.retryPolicy(maximumAttempts: nil)
        let onePerFlush = try configuration.retryPolicy(maximumAttempts: 1)
        return OutboxDrain(
            outbox: outbox, policy: policy,
            makeUploader: { willSend throws(RecorderError) in
                OutboxUploader(outbox: outbox, backend: try configuration.makeBackend(), policy: onePerFlush,
                               share: share, log: { logger.info("\($0)") }, willSend: willSend)
            },
            observer: { event in
                metrics.record(event)
                switch event {
                case .changed: events.announce("outbox")
                case .uploaded(let receipt, _): logger.notice("posted \(receipt.id): \(receipt.videoURL)")
                case .failed(let error): logger.warning("upload failed, will retry: \(error)")
                case .retrying(let id): logger.info("sending post \(id) again")
                }
            })
    }
}
