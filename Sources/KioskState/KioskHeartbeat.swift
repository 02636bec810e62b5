package import FoundationEssentials
package import FleetValues
package import PreflightValues
package import Publishing
package import Shooting
import SystemSupport

/// What a kiosk's heartbeat is made of beside its status (`KioskStatus`): who it is, what it
/// remembers (`BoothHistory`), the camera's last minute, the outbox's oldest post, the mail queue,
/// the clock, the last preflight and the last problem; `heartbeat` puts them together.
package struct KioskHeartbeat: Sendable {
    package var kiosk: String
    package var name: String
    package var version: String
    package var run: String
    package var startedAt: Date
    package var intervalSeconds: Int
    package var facts: BoothHistory.Facts
    package var now: ContinuousClock.Instant
    package var date: Date
    package var minute: CaptureWindow.LastMinute
    /// When the oldest queued post was queued.
    package var oldestQueued: Date?
    package var mail: MailQueue.Counts?
    package var synchronised: Bool?
    package var doctor: (report: PreflightReport, at: Date)?
    package var lastProblem: ProblemLog.Problem?
    /// What a shot takes: the disk's hours left are counted in them.
    package var shot: ShotRequest

    package init(kiosk: String, name: String, version: String, run: String, startedAt: Date, intervalSeconds: Int,
                 facts: BoothHistory.Facts, now: ContinuousClock.Instant, date: Date, minute: CaptureWindow.LastMinute,
                 oldestQueued: Date?, mail: MailQueue.Counts?, synchronised: Bool?, doctor: (report: PreflightReport, at: Date)?,
                 lastProblem: ProblemLog.Problem?, shot: ShotRequest) {
        self.kiosk = kiosk
        self.name = name
        self.version = version
        self.run = run
        self.startedAt = startedAt
        self.intervalSeconds = intervalSeconds
        self.facts = facts
        self.now = now
        self.date = date
        self.minute = minute
        self.oldestQueued = oldestQueued
        self.mail = mail
        self.synchronised = synchronised
        self.doctor = doctor
        self.lastProblem = lastProblem
        self.shot = shot
    }

    /// The heartbeat of a kiosk whose status is `status`.
    package func heartbeat(_ status: KioskStatus) -> Heartbeat {
        let camera = Heartbeat.Camera(
            device: status.camera.device, present: status.camera.present,
            missingSeconds: status.camera.present ? 0 : facts.cameraMissingSince.map { Int((now - $0).components.seconds) } ?? 0,
            streamingSeconds: minute.streamingSeconds, framesDelivered: minute.delivered, framesDropped: minute.dropped,
            fps: minute.fps, nominalFPS: minute.nominalFPS, encoder: facts.encoder)
        let free = [status.disk.workspaceFreeBytes, status.disk.outboxFreeBytes].compactMap { $0 }.min()
        // (what one more shot needs is not recording time: the booth stops short of it)
        let hours = free.map { max(0, Double($0 - shot.bytesNeeded)) / (shot.bytesPerSecond * 3600) }
        let doctor = self.doctor.map { last in
            Heartbeat.Doctor(at: RFC3339.string(last.at), ready: last.report.ready, errors: last.report.count(.error),
                             warnings: last.report.count(.warning),
                             problems: last.report.checks.filter { $0.status == .error || $0.status == .warning }.map(\.id.rawValue))
        }
        return Heartbeat(
            kiosk: kiosk, name: name, version: version, run: run, at: RFC3339.string(date), startedAt: RFC3339.string(startedAt),
            intervalSeconds: intervalSeconds, state: status.state, outOfService: status.service?.names ?? [], camera: camera,
            microphone: Heartbeat.Microphone(choice: status.sound.choice, source: status.sound.source),
            button: status.trigger.map { Heartbeat.Button(state: $0.state, device: $0.device) },
            disk: Heartbeat.Disk(freeBytes: free, hoursLeft: hours, low: status.disk.low),
            outbox: Heartbeat.Outbox(depth: status.outbox.depth, oldestSeconds: oldestQueued.map { max(0, Int(date.timeIntervalSince($0))) },
                                     storeFailing: status.outbox.lastError != nil, lastError: status.outbox.lastError),
            mail: mail.map { Heartbeat.Mail(waiting: $0.queued, refused: $0.refused) },
            lastPostAt: facts.lastPostAt.map(RFC3339.string), clock: Heartbeat.ClockState(synchronised: synchronised),
            doctor: doctor, lastError: lastProblem.map { Heartbeat.LastError(at: $0.at, message: $0.message) })
    }
}
