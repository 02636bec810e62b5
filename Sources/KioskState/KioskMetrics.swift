package import Prometheus
package import Shooting
package import Publishing
package import FleetValues
import Fleet
import Synchronization
import KioskHTTP
import ShotValues

/// The kiosk's Prometheus metrics, in a registry of its own (no global bootstrap, so several
/// kiosks - in tests - do not share counters). Each metric carries a `# HELP` line, so a scrape
/// explains itself to whoever reads it in Grafana or on the command line.
package final class KioskMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    let shots: Counter
    let shotsCameraLost: Counter
    let shotsFailed: Counter
    let shotsDiscarded: Counter
    let framesCaptured: Counter
    let framesDropped: Counter
    let encodeFPS: Gauge
    let shotsWithSound: Counter
    let shotsSilent: Counter
    let soundOverruns: Counter
    let soundLost: Counter
    /// Kept shots with sound by the silent-take guard's verdict.
    let soundChecks: [String: Counter]
    let consentAnswers: [String: Counter]
    let postsQueued: Counter
    let guestDeletionsCounter: Counter
    let postsExpiredCounter: Counter
    let localCopiesExpiredCounter: Counter
    private let guestDeletionCount = Atomic<Int>(0)
    let postsUploaded: Counter
    let postsFailed: Counter
    let uploadBytes: Counter
    let uploadRetries: Counter
    let recording: Gauge
    let connectionsOpen: Gauge
    let videoAnswers: Gauge
    /// Guests' mails by what became of them: queued, sent, refused (kept), forgotten (post gone).
    let mails: [String: Counter]
    let mailFailedAttempts: Counter

    package init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "recorder", metricName: metric, unitName: unit, helpText: help)
        }
        let shotsName = name("shots", "total", "Shots ended, by result: ok, camera_lost (kept up to the loss), failed, or discarded (stopped under the minimum length).")
        shots = registry.makeCounter(descriptor: shotsName, labels: [("result", "ok")])
        shotsCameraLost = registry.makeCounter(descriptor: shotsName, labels: [("result", "camera_lost")])
        shotsFailed = registry.makeCounter(descriptor: shotsName, labels: [("result", "failed")])
        shotsDiscarded = registry.makeCounter(descriptor: shotsName, labels: [("result", "discarded")])
        framesCaptured = registry.makeCounter(descriptor: name("frames_captured", "total", "Frames written into shots."))
        framesDropped = registry.makeCounter(
            descriptor: name("frames_dropped", "total", "Frames the camera delivered late or the encoder could not keep up with."))
        encodeFPS = registry.makeGauge(descriptor: name("encode", "fps", "Frames per second of the last finished shot."))
        let soundName = name("shots_sound", "total", "Shots kept, by sound: with (a sound track) or without (no microphone, or sound off).")
        shotsWithSound = registry.makeCounter(descriptor: soundName, labels: [("sound", "with")])
        shotsSilent = registry.makeCounter(descriptor: soundName, labels: [("sound", "without")])
        soundOverruns = registry.makeCounter(
            descriptor: name("sound_overruns", "total", "Times the microphone's buffer overflowed (the process did not read it in time); each gap was filled with silence."))
        soundLost = registry.makeCounter(
            descriptor: name("sound_lost", "total", "Shots whose sound stopped before the picture (the microphone went away)."))
        let checkName = name("shots_sound_check", "total", "Kept shots with sound, by the silent-take guard's verdict: ok, silent (nothing louder than -45 dBFS), clipping (at full scale for most of it), ended-early.")
        soundChecks = Dictionary(uniqueKeysWithValues: ["ok", "silent", "clipping", "ended-early"].map {
            ($0, registry.makeCounter(descriptor: checkName, labels: [("result", $0)]))
        })
        let consentName = name("consent_answers", "total", "Guests' answers to kiosk.consent on the guest page: yes or no.")
        consentAnswers = Dictionary(uniqueKeysWithValues: ["yes", "no"].map {
            ($0, registry.makeCounter(descriptor: consentName, labels: [("answer", $0)]))
        })
        postsQueued = registry.makeCounter(descriptor: name("posts_queued", "total", "Posts put into the outbox."))
        postsExpiredCounter = registry.makeCounter(
            descriptor: name("posts_expired", "total", "Posts deleted from the store because they were older than retention.days."))
        localCopiesExpiredCounter = registry.makeCounter(
            descriptor: name("local_copies_expired", "total", "Shots, sent records and cached videos this machine deleted because they were older than retention.local_days."))
        guestDeletionsCounter = registry.makeCounter(
            descriptor: name("posts_deleted_by_guests", "total", "Posts their guests deleted from the store with their share link."))
        postsUploaded = registry.makeCounter(descriptor: name("posts_uploaded", "total", "Posts the store confirmed."))
        postsFailed = registry.makeCounter(
            descriptor: name("upload_failures", "total", "Upload attempts that failed; the post stays queued."))
        uploadBytes = registry.makeCounter(descriptor: name("upload_bytes", "total", "Bytes of confirmed uploads."))
        uploadRetries = registry.makeCounter(descriptor: name("upload_retries", "total", "Upload attempts scheduled again after a failure."))
        recording = registry.makeGauge(descriptor: name("recording", "", "1 while a shot is recording."))
        connectionsOpen = registry.makeGauge(descriptor: name("connections_open", "", "HTTP connections open now (the booth's own included)."))
        videoAnswers = registry.makeGauge(descriptor: name("video_answers", "", "Videos being sent now (the booth's screen's and the crowd's)."))
        let mailsName = name("mails", "total", "Guests' mails, by what became of them: queued (a guest asked), sent (the server took it), refused (for good: kept and shown), forgotten (its post was deleted or expired first).")
        mails = Dictionary(uniqueKeysWithValues: ["queued", "sent", "refused", "forgotten"].map {
            ($0, registry.makeCounter(descriptor: mailsName, labels: [("result", $0)]))
        })
        mailFailedAttempts = registry.makeCounter(
            descriptor: name("mail_failed_attempts", "total", "Attempts to send a guest's mail that failed and are tried again (the server down, a 4xx, a connection cut)."))
    }

    /// What the limits hold at the moment of a scrape.
    package func record(_ limits: KioskLimits) {
        connectionsOpen.set(to: Double(limits.connections.snapshot.open))
        videoAnswers.set(to: Double(limits.videos.inUse))
    }

    package func record(_ event: CameraManager.Event) {
        switch event {
        case .state(let state):
            recording.set(to: state == .recording ? 1 : 0)
        case .shotFinished(let result):
            (result.cameraLost == nil ? shots : shotsCameraLost).increment()
            framesCaptured.increment(by: Int64(result.shot.frames))
            framesDropped.increment(by: Int64(result.shot.framesDropped))
            if let audio = result.shot.audio {
                shotsWithSound.increment()
                soundOverruns.increment(by: Int64(audio.overruns))
                if audio.endedEarly != nil { soundLost.increment() }
                if let check = audio.check { soundChecks[check.result]?.increment() }
            } else {
                shotsSilent.increment()
            }
            if result.shot.durationSeconds > 0 {
                encodeFPS.set(to: Double(result.shot.frames) / result.shot.durationSeconds)
            }
        case .shotFailed:
            shotsFailed.increment()
        case .shotDiscarded:
            shotsDiscarded.increment()
        }
    }

    package func postQueued() { postsQueued.increment() }

    /// A guest's answer to the consent text ("yes" or "no").
    package func consentAnswered(_ answer: String) { consentAnswers[answer]?.increment() }

    /// A guest deleted their post with its share link: counted, never named (the operator sees how
    /// many, not which).
    package func guestDeleted() {
        guestDeletionsCounter.increment()
        guestDeletionCount.add(1, ordering: .relaxed)
    }

    /// This machine's copies the retention timer deleted.
    package func localCopiesExpired(_ count: Int) {
        if count > 0 { localCopiesExpiredCounter.increment(by: Int64(count)) }
    }

    /// Posts the retention timer deleted.
    package func postsExpired(_ count: Int) {
        if count > 0 { postsExpiredCounter.increment(by: Int64(count)) }
    }

    /// Posts guests deleted since the kiosk started.
    package var guestDeletions: Int { guestDeletionCount.load(ordering: .relaxed) }

    package func record(_ event: OutboxDrain.Event) {
        switch event {
        case .changed:
            break
        case .uploaded(_, let bytes):
            postsUploaded.increment()
            uploadBytes.increment(by: Int64(bytes))
        case .failed:
            postsFailed.increment()
        case .retrying:
            uploadRetries.increment()
        }
    }

    /// A guest asked for their post's mail.
    package func mailQueued() { mails["queued"]?.increment() }

    package func record(_ event: MailDelivery.Event) {
        switch event {
        case .sent: mails["sent"]?.increment()
        case .refused: mails["refused"]?.increment()
        case .forgotten: mails["forgotten"]?.increment()
        case .willRetry: mailFailedAttempts.increment()
        }
    }

    /// The Prometheus text exposition: the counters, then `booth`, the kiosk's heartbeat as of now
    /// (its camera, outbox, disk, mail, clock: `HeartbeatMetrics`, the same series the fleet
    /// exporter gives of every booth), `heartbeatAge` seconds after its last one reached the store.
    package func text(booth: Heartbeat? = nil, heartbeatAge: Double = 0) -> String {
        guard let booth else { return registry.emitToString() }
        let current = PrometheusCollectorRegistry()
        HeartbeatMetrics.add(booth, ageSeconds: heartbeatAge, into: current)
        return registry.emitToString() + current.emitToString()
    }
}
