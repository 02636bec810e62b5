import FoundationEssentials
import HTTPTypes
package import Logging
package import Settings
package import Shooting
package import Publishing
package import Library
import Synchronization
// (the store's destination and address in `overview`, until Publishing words them: issue 41)
import StorageUpload
import SystemSupport
import TriggerInput

/// One kiosk: the camera manager, the outbox drain, the event hub and the metrics, wired together.
/// The HTTP API, the services and the tests all talk to this; it adds no shooting or posting of
/// its own - those are Shooting's and Publishing's, exactly as the CLI uses them.
package final class Kiosk: Sendable {
    package static let version = RecorderVersion.string
    /// This run of the kiosk, for telling its statuses from another run's (KioskStatus.run).
    package let run = String(UInt64.random(in: 0...UInt64.max), radix: 16)

    package let settings: KioskSettings
    package let configuration: RecorderConfiguration
    package let manager: CameraManager
    package let drain: OutboxDrain
    package let hub: EventHub
    package let metrics: KioskMetrics
    package let notifier: SystemdNotifier
    /// The gallery: the feed and posted videos through the cache.
    package let library: KioskLibrary
    let enqueuer: PostEnqueuer
    let logger: Logger
    /// The last warnings and errors, for the operator page.
    package let problems = ProblemLog()
    /// What may be open at once: connections, video answers, live mirrors.
    package let limits: KioskLimits
    /// The post the booth's screen may show the share link of: its current guest's, while their
    /// thank-you is up.
    let shareWindow: ShareWindow
    /// What the timed rules count by (a test's clock stands still until it is moved).
    package let clock: KioskClock
    /// When the camera service last went round its loop (MonotonicClock microseconds).
    let cameraLoopTick = Atomic<Int64>(0)
    /// Set when the service stops: the live streams end, so the HTTP server can close.
    let closing = Atomic<Bool>(false)
    /// Signalled once the camera's presence was first checked (READY=1 waits for it).
    let cameraReady = Signal()
    private let snapshots: SnapshotEncoder
    /// What changed, in order; `publishEvents` sends each to the event-stream clients.
    let announce: Announcements
    /// `kiosk.on_state`, when set.
    let stateHook: StateHook?
    /// The booth's button (`kiosk.trigger`), when set; its presses queue here for `followButton`.
    let trigger: TriggerButton?
    /// `retention.local_days`, when set: how long this machine keeps its own copies.
    package let localRetention: LocalRetention?
    /// Whose expired posts this kiosk deletes (`retention.scope`, `kiosk.id`).
    package let retentionScope: RetentionScope
    /// What the last purge of expired posts did (the operator page shows it).
    let retentionOutcome = Mutex<RetentionOutcome?>(nil)
    /// `kiosk.prompts`, when set: the question the booth shows now.
    let prompts: PromptDeck?
    /// `kiosk.consent`, when on: no shot starts without a guest's yes.
    package let consent: ConsentGate?
    /// Wrong tokens per client, for the guard and the login route alike.
    let loginThrottle: LoginThrottle
    /// The browsers logged in at /login (nil without tokens: loopback only, no sessions).
    package let sessions: SessionStore?
    /// The operator's highlight reel: made in the background, the latest kept to play.
    let reels: ReelMaker
    /// Guests' mail (`mail.*`), when set: its queue and the thread that sends it.
    package let mail: KioskMail?
    private let presses: AsyncStream<Void>.Continuation
    private let pressStream: AsyncStream<Void>

    package init(settings: KioskSettings, configuration: RecorderConfiguration, logger: Logger,
                notifier: SystemdNotifier = SystemdNotifier(), loginThrottle: LoginThrottle = LoginThrottle(),
                clock: KioskClock = KioskClock(), mail mailSettings: MailSettings? = nil) throws(RecorderError) {
        self.settings = settings
        self.clock = clock
        shareWindow = ShareWindow(clock: clock)
        self.loginThrottle = loginThrottle
        self.configuration = configuration
        limits = KioskLimits(settings)
        snapshots = SnapshotEncoder(for: settings.shot)
        consent = settings.consent.map { ConsentGate($0, clock: clock) }
        let tokens = KioskCredentials.tokens(operatorToken: settings.token, boothToken: settings.boothToken)
        sessions = tokens.isEmpty ? nil : try SessionStore(directory: settings.stateDirectory, tokens: tokens, clock: clock)
        prompts = settings.prompts.map { PromptDeck($0, seconds: settings.promptSeconds) }
        localRetention = try LocalRetention(configuration)
        retentionScope = try RetentionScope(configuration)
        // Warnings and errors also go to the operator page's list.
        var teed = logger
        teed.handler = MultiplexLogHandler([logger.handler, problems.handler])
        self.logger = teed
        let logger = teed
        self.notifier = notifier
        let outbox = Outbox(root: configuration.outboxDirectory)
        try outbox.prepare()
        // Fail at start, not at the first post, when the store is misconfigured.
        let backend = try configuration.makeBackend()
        // A post sent from here links to this kiosk's share page when the store gives no link of its
        // own: at the address a phone on the same network opens (the first non-loopback one).
        let share = try ShareLinks(configuration, pageBase: settings.pageAddresses.first)
        // A link to this machine's loopback opens nothing on a phone: the booth shows no code for it.
        if let example = share.example(store: backend), !ShareLinks.opensOnPhones(example) {
            logger.notice("share links point at this machine's loopback address (\(example)): a guest's phone cannot open them, so the booth shows no QR code and asks guests to see the staff. Set share.base_url to an address phones reach (the booth's nginx: docs/kiosk.md; its own Wi-Fi: docs/venue.md), or listen on the network (kiosk.listen = 0.0.0.0:\(settings.port), with kiosk.token_file).")
        }
        library = KioskLibrary(store: backend, cache: VideoCache(settings: try configuration.videoCacheSettings()), share: share,
                               outbox: outbox, claimsDirectory: settings.stateDirectory + "/claims")
        reels = ReelMaker(cacheDirectory: library.cache.settings.directory)
        // A shot cut off by a crash or power cut becomes the current shot again, to post or replace.
        for note in settings.workspace.recoverInterrupted().notes { logger.notice("\(note)") }
        enqueuer = PostEnqueuer(workspace: settings.workspace, outbox: outbox, configuration: configuration)
        manager = CameraManager(workspace: settings.workspace, device: settings.device, previewIdleSeconds: settings.previewIdleSeconds)
        let policy = try configuration.retryPolicy(maximumAttempts: nil)
        let onePerFlush = try configuration.retryPolicy(maximumAttempts: 1)
        let hub = EventHub(), metrics = KioskMetrics(), announce = Announcements()
        self.announce = announce
        stateHook = settings.stateHook.map { path in StateHook(path: path, log: { [logger] in logger.warning("\($0)") }) }
        // (presses while one is acted on wait their turn; a burst beyond a few is one impatient guest)
        let (pressStream, presses) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(4))
        (self.pressStream, self.presses) = (pressStream, presses)
        trigger = settings.trigger.map { choice in
            TriggerButton(choice, onPress: { presses.yield() }, onState: { state in
                switch state {
                case .waiting: logger.notice("button \(choice.text): not there (yet)")
                case .ready(let device, let name): logger.notice("button ready: \(name) (\(device))")
                case .unplugged(let device, let name): logger.warning("button unplugged: \(name) (\(device)); waiting for it")
                case .refused(_, let why): logger.error("button: \(why)")
                }
                announce.call("trigger")
            })
        }
        self.hub = hub
        self.metrics = metrics
        // Guests' mail goes once its post is in the store: each upload wakes it.
        let language = settings.booth.language
        let mail = mailSettings.map { mailSettings in
            KioskMail(settings: mailSettings,
                      delivery: MailDelivery(queue: MailQueue(outboxRoot: outbox.root), outbox: outbox, settings: mailSettings, store: backend,
                                             policy: policy, retention: share.retention,
                                             expiresText: { MailWording.expires($0, language: language) }, now: { clock.date }),
                      metrics: metrics, logger: logger, announce: announce)
        }
        self.mail = mail
        drain = OutboxDrain(
            outbox: outbox, policy: policy,
            makeUploader: { willSend throws(RecorderError) in
                OutboxUploader(outbox: outbox, backend: try configuration.makeBackend(), policy: onePerFlush,
                               share: share, log: { logger.info("\($0)") }, willSend: willSend)
            },
            observer: { event in
                metrics.record(event)
                switch event {
                case .changed: announce.call("outbox")
                case .uploaded(let receipt, _):
                    logger.notice("posted \(receipt.id): \(receipt.videoURL)")
                    mail?.drain.wake()
                case .failed(let error): logger.warning("upload failed, will retry: \(error.text())")
                case .retrying(let id): logger.info("sending post \(id) again")
                }
            })
    }

    /// Sends every announced change to the event-stream clients, with the status as it is when
    /// sent, one after another: a client never gets an older status after a newer one. Runs until
    /// `endEvents()` (or its task is cancelled).
    func publishEvents() async {
        await announce.forEach { kind in hub.publish(kind, value: await status()) }
    }

    /// One press of the booth's button, as `kiosk.trigger` reports it: acted on by `followButton`.
    func pressButton() {
        presses.yield()
    }

    /// Acts on the button's presses, one after another, until `stopButton()`.
    func followButton() async {
        for await _ in pressStream {
            do {
                // With kiosk.consent on, a press starts a shot only under a guest's yes; without
                // one it can only stop, and the page is told of it (it asks the guest).
                let request = guestShotRequest()
                switch try await manager.press(request, countdown: settings.countdown) {
                case .started:
                    consent?.started(under: request?.consent)
                    logger.info("button: shot started")
                case .stopped: logger.info("button: shot stopped")
                case .ignored: logger.info("button: pressed while a shot is being saved; nothing to do")
                case .notStarted:
                    logger.info("button: pressed; the guest page asks for consent first")
                    consent?.buttonPressed()
                    announce.call("consent")
                }
            } catch {
                await releasePromptUnlessRecording()
                logger.warning("button: \(error.text())")
            }
        }
    }

    /// A guest's shot as the kiosk starts it (the page, the API, the button): under the guest's yes
    /// when `kiosk.consent` asks for one (nil without it: no shot may start), answering the question
    /// the booth shows (`kiosk.prompts`, held from now until the shot is over). `retaking` is the
    /// shot the guest page reviews when its guest asked for a retake: only that starts a shot under
    /// a yes something was already recorded under. Somebody starting a shot is the next guest: the
    /// last one's share link leaves the booth's screen.
    func guestShotRequest(seconds: Double? = nil, retaking shot: Shot? = nil) -> ShotRequest? {
        shareWindow.close()
        var request = settings.shotRequest(seconds: seconds)
        if let consent {
            guard let given = consent.use(retaking: shot) else { return nil }
            request.consent = given
        }
        request.prompt = prompts?.holdForShot()
        return request
    }

    /// A shot that did not start: its question moves on again (unless another shot is under way,
    /// which keeps its own).
    func releasePromptUnlessRecording() async {
        switch await manager.recordState {
        case .idle, .failed, .cameraMissing: prompts?.release(after: .zero)
        default: break
        }
    }

    /// Lets the button go and ends `followButton` (the kiosk is stopping: a press must not start a shot now).
    func stopButton() {
        trigger?.stop()
        presses.finish()
    }

    /// Lets `publishEvents` send what is announced so far, then return.
    func endEvents() {
        closing.store(true, ordering: .relaxed)
        announce.finish()
    }

    /// Connects the manager's events to the hub, the metrics, the journal and systemd's STATUS=.
    func wire() async {
        let metrics = self.metrics, logger = self.logger, notifier = self.notifier, drain = self.drain
        let announce = self.announce, stateHook = self.stateHook
        let prompts = self.prompts, review = settings.booth.reviewSeconds
        await manager.observe { event in
            metrics.record(event)
            switch event {
            case .state(let state):
                announce.call("state")
                switch state {
                // The shot is over (or never started): its question stays for the review.
                case .idle, .failed, .cameraMissing: prompts?.release(after: .seconds(review))
                default: break
                }
                stateHook?.call(state.name)
                notifier.status(Self.statusLine(state))
                switch state {
                case .failed(let why): logger.error("shot failed: \(why.text())")
                case .cameraMissing(let why): logger.warning("camera missing: \(why.text())")
                default: logger.debug("state \(state.name)")
                }
            case .shotFinished(let result):
                let shot = result.shot
                announce.call("shot")
                logger.notice("shot \(shot.id): \(shot.frames) frames (\(shot.framesDropped) dropped), \(String(cFormat: "%.2f", shot.durationSeconds)) s\(result.cameraLost.map { "; camera lost: \($0.text())" } ?? "")")
                // The silent-take guard: the operator hears of a take nobody can hear at once.
                if let check = shot.audio?.check, let note = SoundCheck.note(check) {
                    logger.warning("shot \(shot.id): \(note)")
                }
            case .shotFailed:
                announce.call("state")
            case .shotDiscarded(let why):
                logger.notice("shot not kept: \(why.text())")
                announce.call("state")
            }
        }
    }

    static func statusLine(_ state: CameraManager.RecordState) -> String {
        switch state {
        case .idle: "idle, ready to shoot"
        case .countdown(let n): "counting down: \(n)"
        case .starting: "starting a shot"
        case .recording: "recording"
        case .finishing: "finishing a shot"
        case .failed(let why): "last shot failed: \(why.text())"
        case .cameraMissing(let why): "camera missing: \(why.text())"
        }
    }

    // MARK: - What the API asks

    package func status() async -> KioskStatus {
        let camera = await manager.status()
        let previewRunning = await manager.previewRunning
        let outbox = drain.status
        var countdown: Int?
        var message: String?, guestKey: GuestStrings.Key?
        switch camera.state {
        case .countdown(let n): countdown = n
        case .failed(let why): (message, guestKey) = (why.text(), camera.failure.map(GuestWording.key(for:)) ?? .notSaved)
        case .cameraMissing(let why): (message, guestKey) = (why.text(), .cameraUnavailable)
        case .idle:
            message = camera.lastShotDiscarded?.text()
            if message != nil { guestKey = .tooShort }
        default: break
        }
        // The files (the current shot's link and JSON, its posted marker, free space) are read on a
        // helper thread: every status request and event asks for them.
        let workspace = settings.workspace, enqueuer = self.enqueuer, outboxRoot = drain.outbox.root
        let cameraLost = camera.lastShotCameraLost?.text()
        let audioChoice = settings.audio, cameraName = camera.camera
        let (current, workspaceFree, outboxFree, soundSource) = await BlockingWork.run { () -> (KioskStatus.CurrentShot?, Int64?, Int64?, String?) in
            var current: KioskStatus.CurrentShot?
            if let shot = workspace.currentShot() {
                let playable = FileManager.default.isReadableFile(atPath: shot.videoPath)
                current = KioskStatus.CurrentShot(
                    id: shot.id, createdAt: RFC3339.string(shot.createdAt), durationSeconds: shot.durationSeconds, frames: shot.frames,
                    framesDropped: shot.framesDropped, width: shot.width, height: shot.height, byteSize: shot.byteSize,
                    endedEarly: shot.endedEarly, cameraLost: cameraLost,
                    videoURL: playable ? "/api/shot/current/video.mp4?v=\(shot.id)" : nil, postedAs: enqueuer.postedID(shot),
                    audio: shot.audio)
            }
            return (current, FileSystem.freeBytes(workspace.root), FileSystem.freeBytes(outboxRoot),
                    AudioSelector.describe(audioChoice, camera: cameraName))
        }
        let needed = settings.shotRequest().bytesNeeded
        let low = (workspaceFree.map { $0 < needed } ?? false) || (outboxFree.map { $0 < needed / 2 } ?? false)
        return KioskStatus(
            state: camera.state.name, run: run, revision: camera.revision, countdown: countdown, message: message,
            guestMessage: guestKey.map { GuestStrings.text($0) }, guestKey: guestKey?.rawValue,
            camera: .init(device: camera.camera, present: camera.cameraPresent, previewRunning: previewRunning),
            sound: .init(choice: settings.audio.text, muted: settings.audio == .none, source: soundSource),
            progress: camera.progress.map {
                .init(elapsedSeconds: $0.elapsedSeconds, totalSeconds: $0.totalSeconds, frames: $0.frames, dropped: $0.dropped,
                      soundPeakDBFS: $0.soundLevel?.peakDBFS, soundRmsDBFS: $0.soundLevel?.rmsDBFS)
            },
            currentShot: current,
            outbox: .init(depth: outbox.queued.count, queued: outbox.queued, uploading: outbox.uploading,
                          uploadingBytes: outbox.uploadingBytes, uploadingTotal: outbox.uploadingTotal,
                          lastError: outbox.lastFailure?.text(), retryInSeconds: outbox.retryInSeconds,
                          lastUploaded: outbox.lastUploaded?.id, lastUploadedURL: outbox.lastUploaded?.videoURL,
                          uploaded: outbox.uploadedCount),
            disk: .init(workspaceFreeBytes: workspaceFree, outboxFreeBytes: outboxFree, low: low), booth: settings.booth,
            trigger: trigger.map(Self.triggerStatus),
            shotSeconds: settings.seconds, countdownSeconds: settings.countdown, version: Self.version,
            consent: consent?.status, prompt: prompts?.current)
    }

    /// What the operator page shows beyond the status: the outbox post by post with where each
    /// goes, the last problems in full, free space, and the configuration (secrets masked).
    package func overview() async -> AdminOverview {
        let status = await status()
        let outbox = drain.outbox, store = library.feed.store, configuration = self.configuration
        let uploading = status.outbox.uploading
        let workspace = settings.workspace.root, cache = library.cache.settings.directory
        let (queued, unreadable, disk) = await BlockingWork.run { () -> ([AdminOverview.QueuedPost], [String], [AdminOverview.Space]) in
            let queued = outbox.items().map { item in
                AdminOverview.QueuedPost(
                    id: item.metadata.id, caption: item.metadata.caption, bytes: item.metadata.byteSize, queuedAt: item.state.queuedAt,
                    attempts: item.state.attempts, lastError: item.state.lastError,
                    destination: item.state.destination?.description ?? store.destination.description,
                    videoURL: store.url(forKey: item.metadata.key), uploading: item.metadata.id == uploading)
            }
            var disk = [("workspace", workspace), ("outbox", outbox.root), ("cache", cache)]
            if store.destination.backend == "local", let path = store.destination.path { disk.append(("store", path)) }
            return (queued, outbox.unreadableItems(),
                    disk.map { AdminOverview.Space(what: $0.0, path: $0.1, freeBytes: FileSystem.freeBytes($0.1)) })
        }
        var mail: AdminOverview.Mail?
        if let kioskMail = self.mail { mail = await BlockingWork.run { AdminOverview.Mail(kioskMail) } }
        return AdminOverview(
            status: status, store: store.location, outbox: queued, mail: mail, unreadable: unreadable, problems: problems.newestFirst, disk: disk,
            configuration: configuration.effectiveValues().map { AdminOverview.Setting(key: $0.key, value: $0.value, origin: $0.origin) },
            guestDeletions: metrics.guestDeletions, retentionOn: library.share.retention != nil, retention: retentionOutcome.withLock { $0 },
            shareLinks: library.share.example(store: store).map { .init(example: $0, opensOnPhones: ShareLinks.opensOnPhones($0)) })
    }

    static func triggerStatus(_ button: TriggerButton) -> KioskStatus.Trigger {
        let (state, presses) = button.state
        var status = KioskStatus.Trigger(setting: button.choice.text, state: state.name, presses: presses)
        switch state {
        case .waiting: break
        case .ready(let device, let name), .unplugged(let device, let name): (status.device, status.name) = (device, name)
        case .refused(let device, let why): (status.device, status.message) = (device, why)
        }
        return status
    }

    /// Queues the current shot as a post (durably, in the outbox) while the manager holds it still,
    /// and wakes the drain to upload it.
    func post(caption: String) async throws(RecorderError) -> OutboxItem {
        switch try await enqueue(caption: caption, shotID: nil) {
        case .queued(let item): return item
        case .notCurrent: throw .post(.noFinishedShot(workspace: settings.workspace.root))
        }
    }

    /// A guest's Post: queues shot `shotID` when it is still the current shot. A Post that comes
    /// late (retried, or sent from a review that has ended) never publishes the next guest's
    /// shot: it is refused (409).
    func post(shotID: String, caption: String) async throws(APIError) -> OutboxItem {
        let outcome: PostOutcome
        do throws(RecorderError) {
            outcome = try await enqueue(caption: caption, shotID: shotID)
        } catch {
            throw APIError(error)
        }
        switch outcome {
        case .queued(let item): return item
        case .notCurrent(let current):
            throw APIError(.conflict, "shot \(shotID) is not the current shot (\(current.map { "that is \($0)" } ?? "there is none")): a Post names the shot its guest reviewed, and that one was replaced or deleted. Nothing was posted.",
                           kind: .badData, guestKey: .tryAgain)
        }
    }

    enum PostOutcome: Sendable {
        case queued(OutboxItem)
        /// The shot asked for is not the current one (which is this, if any).
        case notCurrent(String?)
    }

    private func enqueue(caption: String, shotID: String?) async throws(RecorderError) -> PostOutcome {
        let enqueuer = self.enqueuer, workspace = settings.workspace
        let outcome = try await manager.holdingCurrentShot { () async throws(RecorderError) -> PostOutcome in
            try await BlockingWork.run { () throws(RecorderError) -> PostOutcome in
                if let shotID {
                    let current = workspace.currentShotID()
                    guard current == shotID else { return .notCurrent(current) }
                }
                return .queued(try enqueuer.enqueue(try enqueuer.joining(to: try enqueuer.plan(caption: caption, shotID: shotID))))
            }
        }
        guard case .queued(let item) = outcome else { return outcome }
        metrics.postQueued()
        // This guest is done: the next one is asked again. Their thank-you shows this post's link.
        consent?.end()
        library.shareTokens.learn(token: item.metadata.shareToken, id: item.metadata.id)
        shareWindow.open(item.metadata.id)
        logger.notice("queued post \(item.metadata.id)")
        announce.call("posted")
        drain.wake()
        return outcome
    }

    /// Deletes the current shot, when it is `shotID` and not posted: a guest's "Delete" in review.
    func discard(shotID: String) async throws(RecorderError) {
        let workspace = settings.workspace, enqueuer = self.enqueuer
        try await manager.holdingCurrentShot { () async throws(RecorderError) in
            try await BlockingWork.run { () throws(RecorderError) in
                let lock = try workspace.lock()
                if let shot = workspace.currentShot(), shot.id == shotID, let error = enqueuer.alreadyPosted(shot) { throw error }
                try workspace.discardCurrent(id: shotID)
                _ = consume lock
            }
        }
        consent?.end()
        logger.notice("shot \(shotID) deleted at the booth")
        announce.call("shot")
    }

    /// The workspace's current shot (a readlink and a JSON read, on a helper thread).
    func currentShot() async -> Shot? {
        let workspace = settings.workspace
        return await BlockingWork.run { workspace.currentShot() }
    }

    /// Why the kiosk is not healthy, or nothing when it is.
    package func problems() async -> [String] {
        // Judged when asked: however long the status takes to gather, the loop's heartbeat is
        // not counted stale for it.
        let loopAlive = isCameraLoopAlive
        let status = await status()
        var problems: [String] = []
        if !status.camera.present { problems.append("camera missing: \(status.message ?? status.camera.device)") }
        if status.disk.low { problems.append("disk nearly full: free space in \(settings.workspace.root) or \(drain.outbox.root)") }
        if !loopAlive { problems.append("the camera loop has not run for over 10 s") }
        return problems
    }

    var isCameraLoopAlive: Bool {
        MonotonicClock.nowMicroseconds() - cameraLoopTick.load(ordering: .relaxed) < 10_000_000
    }

    /// A camera picture other than `serial` (0: any), at most 2 s old. While idle the preview
    /// camera is started (and kept while somebody asks); waits up to `wait` seconds for one, and
    /// gives up at once when the kiosk is closing.
    private func previewPicture(after serial: UInt64 = 0, wait: Double) async -> PreviewTap.Picture? {
        await manager.wantPreview(request: settings.previewRequest)
        let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))
        let tap = manager.preview
        while !closing.load(ordering: .relaxed) {
            // (the count first: a picture taken between the look and the wait still wakes it)
            let seen = tap.changed.generation
            let newest = tap.picture(maximumAge: 2)
            if let newest, newest.serial != serial { return newest }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, !Task.isCancelled else { return nil }
            // Asleep until the tap takes a picture; at most 0.2 s, so a closing kiosk is noticed.
            await tap.changed.wait(after: seen, timeout: min(left, .milliseconds(200)))
        }
        return nil
    }

    /// The next preview JPEG after picture `serial` (0: any), for the live stream: waits up to
    /// `wait` seconds for a newer picture; nil when none came (the camera stopped) or the kiosk is
    /// closing.
    func nextPreviewJPEG(after serial: UInt64, wait: Double = 2) async -> (jpeg: [UInt8], serial: UInt64, ageMilliseconds: Int64)? {
        guard let picture = await previewPicture(after: serial, wait: wait),
              let jpeg = try? await snapshots.jpeg(of: picture) else { return nil }
        return (jpeg, picture.serial, (MonotonicClock.nowMicroseconds() - picture.copiedAtMicroseconds) / 1000)
    }

    /// A JPEG of a recent camera picture; waits up to `wait` seconds for the first picture.
    package func previewJPEG(wait: Double = 3) async throws(APIError) -> [UInt8] {
        guard let picture = await previewPicture(wait: wait) else {
            let state = await manager.recordState
            if case .cameraMissing(let why) = state {
                throw APIError(.serviceUnavailable, "no preview: the camera is missing (\(why.text()))", kind: .unavailable)
            }
            throw APIError(.serviceUnavailable, "no preview picture yet (state: \(state.name)); try again in a moment.", kind: .busy)
        }
        do {
            return try await snapshots.jpeg(of: picture)
        } catch {
            throw APIError(.serviceUnavailable, "no preview: \(error)", kind: .unavailable)
        }
    }
}
