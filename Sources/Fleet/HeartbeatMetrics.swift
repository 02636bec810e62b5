import FoundationEssentials
package import FleetValues
package import Prometheus
import SystemSupport

/// A booth's heartbeat as Prometheus metrics, with the same names and help whoever writes them: the
/// kiosk's own `/metrics` (its live heartbeat, no labels: the scrape's target labels name the booth)
/// and the fleet exporter (`recorder fleet --prometheus`: every booth's last heartbeat, each series
/// labelled `kiosk`), so the shipped alert rules and dashboard read both. The names are the
/// contract with `packaging/prometheus/` (a test checks each rule's and panel's against a live
/// `/metrics`).
package enum HeartbeatMetrics {
    /// Adds `heartbeat`'s series to `registry`, each with `labels`. `ageSeconds`: how old the
    /// heartbeat is (the exporter), or how long ago the booth's own last one reached the store.
    package static func add(_ heartbeat: Heartbeat, ageSeconds: Double, into registry: PrometheusCollectorRegistry, labels: [(String, String)] = []) {
        func gauge(_ metric: String, _ help: String, _ value: Double?, _ more: [(String, String)] = []) {
            guard let value else { return }
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "recorder", metricName: metric, unitName: "", helpText: help),
                               labels: labels + more).set(to: value)
        }
        func flag(_ value: Bool) -> Double { value ? 1 : 0 }
        let camera = heartbeat.camera, outbox = heartbeat.outbox, disk = heartbeat.disk
        gauge("booth_info", "Always 1: the booth's name (author_name) and recorder's version as labels.", 1,
              [("name", heartbeat.name), ("version", heartbeat.version)])
        gauge("heartbeat_age_seconds", "Seconds since the booth's heartbeat last reached the store (fleet/<kiosk.id>.json); over 3 intervals it counts as offline.", ageSeconds)
        gauge("heartbeat_interval_seconds", "fleet.heartbeat_seconds: how often the booth writes its heartbeat.", Double(heartbeat.intervalSeconds))
        gauge("in_service", "1 while the booth takes guests, 0 while it is out of service (camera, disk or store).", flag(heartbeat.outOfService.isEmpty))
        gauge("camera_up", "1 while the camera is present, 0 while it is missing.", flag(camera.present))
        gauge("camera_missing_seconds", "How long the camera has been missing; 0 while it is present.", Double(camera.missingSeconds))
        gauge("capture_streaming_seconds", "Seconds of the last minute the camera streamed (a shot, or the live preview someone watched).", camera.streamingSeconds)
        gauge("capture_fps", "Frames per second the camera delivered while it streamed in the last minute (0 when it did not stream).", camera.fps ?? 0)
        gauge("capture_nominal_fps", "The frame rate the camera was asked for (0 before it first streamed).", camera.nominalFPS ?? 0)
        gauge("capture_frames_last_minute", "Frames the camera delivered in the last minute.", Double(camera.framesDelivered))
        gauge("capture_dropped_last_minute", "Frames the camera dropped in the last minute (gaps in its frame count).", Double(camera.framesDropped))
        gauge("encoder_info", "Always 1: the last shot's encoder as a label (libx264, or copy for a camera's own H.264).", camera.encoder == nil ? nil : 1,
              [("encoder", camera.encoder ?? "")])
        gauge("outbox_depth", "Posts waiting in the outbox.", Double(outbox.depth))
        gauge("outbox_oldest_age_seconds", "How long the oldest post in the outbox has waited; 0 when none waits.", Double(outbox.oldestSeconds ?? 0))
        gauge("store_failing", "1 while the last attempt to send a post to the store failed.", flag(outbox.storeFailing))
        gauge("last_upload_timestamp_seconds", "When the last post reached the store (Unix time), since the kiosk started.",
              heartbeat.lastPostAt.flatMap(RFC3339.date).map(\.timeIntervalSince1970))
        gauge("mail_waiting", "Guests' mails waiting: for their post's upload, or for the server.", heartbeat.mail.map { Double($0.waiting) })
        gauge("mail_refused", "Guests' mails refused for good and kept (recorder outbox mail --retry sends them again).", heartbeat.mail.map { Double($0.refused) })
        gauge("disk_free_bytes", "Free bytes where shots are recorded or posts wait, whichever has less.", disk.freeBytes.map(Double.init))
        gauge("recording_hours_left", "Hours of recording the free disk holds at the configured bitrate.", disk.hoursLeft)
        gauge("clock_synchronised", "1 when a time service has synchronised the clock, 0 when not (absent when the booth cannot tell).",
              heartbeat.clock.synchronised.map(flag))
        gauge("preflight_errors", "Errors the booth's last preflight found (the operator page's checks).", heartbeat.doctor.map { Double($0.errors) })
    }

    /// The exporter's text: every booth's series, labelled with its `kiosk`.
    package static func text(_ reports: [BoothReport]) -> String {
        let registry = PrometheusCollectorRegistry()
        let help = MetricNameDescriptor(namespace: "recorder", metricName: "fleet_booths", unitName: "",
                                        helpText: "Booths with a heartbeat in the store, by whether they count as online.")
        registry.makeGauge(descriptor: help, labels: [("online", "true")]).set(to: Double(reports.count { $0.online }))
        registry.makeGauge(descriptor: help, labels: [("online", "false")]).set(to: Double(reports.count { !$0.online }))
        for report in reports {
            guard let heartbeat = report.heartbeat else { continue }
            add(heartbeat, ageSeconds: Double(report.ageSeconds), into: registry, labels: [("kiosk", report.kiosk)])
        }
        return registry.emitToString()
    }
}
