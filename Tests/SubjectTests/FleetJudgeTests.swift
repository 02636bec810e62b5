import Foundation
import Testing
import Fleet
import FleetValues
import SystemSupport

/// How a reader of the store judges the booths' heartbeats: by the store's clock, offline after
/// three of the booth's own intervals, and each problem with its numbers (issue 54).
@Suite struct FleetJudgeTests {
    static let now = RFC3339.date("2026-11-29T10:00:00Z")!

    static func found(_ heartbeat: Heartbeat?, kiosk: String = "booth-a", storedSecondsAgo: Double?) -> HeartbeatStore.Found {
        HeartbeatStore.Found(kiosk: kiosk, heartbeat: heartbeat, storedAt: storedSecondsAgo.map { now.timeIntervalSince1970 - $0 })
    }

    @Test func aBoothIsOfflineOnlyOnceItsHeartbeatIsOverThreeOfItsIntervalsOld() {
        let onTime = FleetJudge.judge([Self.found(HeartbeatSamples.well(interval: 20), storedSecondsAgo: 60)], now: Self.now)
        #expect(onTime.map(\.online) == [true] && onTime.map(\.problems) == [[]] && onTime.map(\.ageSeconds) == [60])
        let late = FleetJudge.judge([Self.found(HeartbeatSamples.well(interval: 20), storedSecondsAgo: 61)], now: Self.now)
        #expect(late.map(\.online) == [false])
        #expect(late.first?.problems == [.offline(silentSeconds: 61)])
        // Another booth's interval is its own: 61 s is well within three of 60 s.
        #expect(FleetJudge.judge([Self.found(HeartbeatSamples.well(interval: 60), storedSecondsAgo: 61)], now: Self.now).first?.online == true)
    }

    /// A booth whose clock is an hour wrong is judged by when the store got its heartbeat, not by
    /// the time it wrote into it; without the store's time, by the heartbeat's own.
    @Test func theAgeIsTheStoresNotTheBooths() {
        let wrongClock = HeartbeatSamples.well(at: "2026-11-29T09:00:00Z")
        #expect(FleetJudge.judge([Self.found(wrongClock, storedSecondsAgo: 5)], now: Self.now).first?.ageSeconds == 5)
        #expect(FleetJudge.judge([Self.found(wrongClock, storedSecondsAgo: nil)], now: Self.now).first?.ageSeconds == 3600)
    }

    @Test func theNewestHeartbeatComesFirstAndWhatCannotBeReadLast() {
        let reports = FleetJudge.judge([
            Self.found(HeartbeatSamples.well("old"), kiosk: "old", storedSecondsAgo: 500),
            HeartbeatStore.Found(kiosk: "garbled", heartbeat: nil, format: 7, storedAt: Self.now.timeIntervalSince1970),
            Self.found(HeartbeatSamples.well("new"), kiosk: "new", storedSecondsAgo: 2),
            Self.found(HeartbeatSamples.well("mid"), kiosk: "mid", storedSecondsAgo: 30),
        ], now: Self.now)
        #expect(reports.map(\.kiosk) == ["new", "mid", "old", "garbled"])
        #expect(reports.last?.problems == [.unreadable(format: 7)])
    }

    @Test func eachProblemComesWithItsNumbers() {
        var beat = HeartbeatSamples.well()
        beat.camera.present = false
        beat.camera.missingSeconds = 95
        beat.outbox = .init(depth: 3, oldestSeconds: 900, storeFailing: true, lastError: "the store refused")
        beat.disk = .init(freeBytes: 300 << 20, hoursLeft: 0.4, low: false)
        beat.clock.synchronised = false
        beat.mail = .init(waiting: 1, refused: 2)
        beat.doctor = .init(at: "2026-11-29T09:00:00Z", ready: false, errors: 1, warnings: 0, problems: ["store"])
        beat.state = "camera-missing"
        beat.outOfService = ["camera", "store", "disk", "something-new"]
        #expect(FleetJudge.problems(beat) == [
            .cameraMissing(seconds: 95),
            .storeFailing(queued: 3, oldestSeconds: 900, lastError: "the store refused"),
            .diskLow(freeBytes: 300 << 20, hoursLeft: 0.4),
            .outOfService(causes: ["something-new"]),
            .clockNotSynchronised,
            .mailRefused(count: 2),
            .doctorFound(errors: 1, checks: ["store"]),
        ])
        #expect(FleetJudge.problems(HeartbeatSamples.well()) == [], "a well booth with a preflight warning has no problem")
    }

    /// The outbox's first retries and a short outage pass unseen; an unknown clock is no problem.
    @Test func whatIsNotYetAProblem() {
        var beat = HeartbeatSamples.well()
        beat.outbox = .init(depth: 2, oldestSeconds: 119, storeFailing: true, lastError: "reset")
        beat.clock.synchronised = nil
        #expect(FleetJudge.problems(beat) == [])
        beat.outbox.oldestSeconds = 120
        #expect(FleetJudge.problems(beat) == [.storeFailing(queued: 2, oldestSeconds: 120, lastError: "reset")])
        beat.outbox = .init(depth: 2, oldestSeconds: 4000, storeFailing: false, lastError: nil)
        #expect(FleetJudge.problems(beat) == [], "posts waiting while the store works are being sent")
    }

    /// A camera is judged on its rate only once it streamed long enough in the last minute.
    @Test func aSlowCamera() {
        var beat = HeartbeatSamples.well()
        beat.camera.fps = 14
        #expect(FleetJudge.problems(beat) == [.cameraSlow(fps: 14, nominal: 30, dropped: 0, delivered: 1800)])
        beat.camera.streamingSeconds = 10
        #expect(FleetJudge.problems(beat) == [], "ten seconds of a preview opening are not judged")
        beat.camera = .init(device: "x", present: true, missingSeconds: 0, streamingSeconds: 60, framesDelivered: 1700, framesDropped: 100,
                            fps: 29.5, nominalFPS: 30, encoder: nil)
        #expect(FleetJudge.problems(beat) == [.cameraSlow(fps: 29.5, nominal: 30, dropped: 100, delivered: 1700)])
    }
}
