package import FoundationEssentials
package import FleetValues
import SystemSupport

/// Judges the booths' heartbeats as `recorder fleet`, the fleet page and the exporter show them:
/// how old each is (by the store's clock where it gives one, so a booth whose own clock is wrong
/// is not judged by it), whether the booth counts as online, and what is wrong with it.
package enum FleetJudge {
    /// A booth is offline when its heartbeat is more than this many of its intervals old: one late
    /// write (a slow store, a busy booth) is not an outage, three are.
    package static let offlineIntervals = 3
    /// The interval assumed for an object that cannot be read (`fleet.heartbeat_seconds`' default).
    static let defaultInterval = 60
    /// Posts may wait this long while the store fails before the fleet calls it a problem: the
    /// outbox's first retries and a short outage pass unseen.
    static let storePatienceSeconds = 120
    /// Fewer hours of recording than this left on the disk is a problem.
    package static let diskHoursWarning = 1.0
    /// A camera that streamed at least this long in the last minute is judged on its rate.
    static let streamingSecondsJudged = 20.0
    /// The rate, as a share of the asked one, below which a camera counts as slow.
    package static let fpsShareWarning = 0.8
    /// The share of the last minute's frames dropped above which a camera counts as slow.
    static let droppedShareWarning = 0.05

    /// Every booth found, newest heartbeat first (those that cannot be read last).
    package static func judge(_ found: [HeartbeatStore.Found], now: Date) -> [BoothReport] {
        found.map { judge($0, now: now) }.sorted { a, b in
            switch (a.heartbeat != nil, b.heartbeat != nil) {
            case (true, false): true
            case (false, true): false
            default: (a.ageSeconds, a.kiosk) < (b.ageSeconds, b.kiosk)
            }
        }
    }

    static func judge(_ found: HeartbeatStore.Found, now: Date) -> BoothReport {
        let written = found.storedAt ?? found.heartbeat.flatMap { RFC3339.date($0.at)?.timeIntervalSince1970 }
        let age = max(0, Int((now.timeIntervalSince1970 - (written ?? 0)).rounded()))
        let interval = found.heartbeat?.intervalSeconds ?? defaultInterval
        let online = written != nil && age <= offlineIntervals * interval
        var problems: [BoothProblem] = online ? [] : [.offline(silentSeconds: age)]
        if let heartbeat = found.heartbeat {
            problems += self.problems(heartbeat)
        } else {
            problems.append(.unreadable(format: found.format))
        }
        return BoothReport(kiosk: found.kiosk, heartbeat: found.heartbeat, ageSeconds: age, online: online, problems: problems)
    }

    /// What a heartbeat says is wrong, worst first.
    package static func problems(_ heartbeat: Heartbeat) -> [BoothProblem] {
        var problems: [BoothProblem] = []
        var covered: Set<String> = []
        let camera = heartbeat.camera
        if !camera.present {
            problems.append(.cameraMissing(seconds: camera.missingSeconds))
            covered.insert("camera")
        } else if let slow = slowCamera(camera) {
            problems.append(slow)
        }
        let outbox = heartbeat.outbox
        if outbox.storeFailing, outbox.depth > 0, let oldest = outbox.oldestSeconds, oldest >= storePatienceSeconds {
            problems.append(.storeFailing(queued: outbox.depth, oldestSeconds: oldest, lastError: outbox.lastError))
            covered.insert("store")
        }
        if heartbeat.disk.low || (heartbeat.disk.hoursLeft.map { $0 < diskHoursWarning } ?? false) {
            problems.append(.diskLow(freeBytes: heartbeat.disk.freeBytes, hoursLeft: heartbeat.disk.hoursLeft))
            covered.insert("disk")
        }
        let others = heartbeat.outOfService.filter { !covered.contains($0) }
        if !others.isEmpty { problems.append(.outOfService(causes: others)) }
        if heartbeat.state == "failed" { problems.append(.shotFailed) }
        if heartbeat.clock.synchronised == false { problems.append(.clockNotSynchronised) }
        if let mail = heartbeat.mail, mail.refused > 0 { problems.append(.mailRefused(count: mail.refused)) }
        if let doctor = heartbeat.doctor, !doctor.ready { problems.append(.doctorFound(errors: doctor.errors, checks: doctor.problems)) }
        return problems
    }

    /// A camera that streamed long enough in the last minute to be judged, below the rate it was
    /// asked for or dropping frames.
    static func slowCamera(_ camera: Heartbeat.Camera) -> BoothProblem? {
        guard camera.streamingSeconds >= streamingSecondsJudged, let fps = camera.fps else { return nil }
        let total = camera.framesDelivered + camera.framesDropped
        let slow = camera.nominalFPS.map { $0 > 0 && fps < $0 * fpsShareWarning } ?? false
        let dropping = total > 0 && Double(camera.framesDropped) / Double(total) > droppedShareWarning
        guard slow || dropping else { return nil }
        return .cameraSlow(fps: fps, nominal: camera.nominalFPS ?? 0, dropped: camera.framesDropped, delivered: camera.framesDelivered)
    }
}
