import FleetValues

/// Heartbeats for the fleet's tests: a booth that is well, changed by the test where it matters.
enum HeartbeatSamples {
    static func well(_ kiosk: String = "booth-a", at: String = "2026-11-29T10:00:00Z", interval: Int = 60) -> Heartbeat {
        Heartbeat(
            kiosk: kiosk, name: "Booth \(kiosk)", version: "0.5.0", run: "run1", at: at, startedAt: "2026-11-29T08:00:00Z",
            intervalSeconds: interval, state: "idle", outOfService: [],
            camera: .init(device: "/dev/video0", present: true, missingSeconds: 0, streamingSeconds: 60, framesDelivered: 1800, framesDropped: 0,
                          fps: 30, nominalFPS: 30, encoder: "libx264"),
            microphone: .init(choice: "auto", source: "hw:CARD=C920,DEV=0"), button: .init(state: "ready", device: "/dev/input/event3"),
            disk: .init(freeBytes: 20 << 30, hoursLeft: 11.5, low: false),
            outbox: .init(depth: 0, oldestSeconds: nil, storeFailing: false, lastError: nil), mail: .init(waiting: 0, refused: 0),
            lastPostAt: "2026-11-29T09:58:00Z", clock: .init(synchronised: true),
            doctor: .init(at: "2026-11-29T08:01:00Z", ready: true, errors: 0, warnings: 1, problems: ["wifi"]), lastError: nil)
    }
}
