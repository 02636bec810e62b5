import Foundation
import Testing
import Fleet
import FleetValues
import Prometheus

/// The heartbeats as Prometheus series: the exporter labels each booth's with its kiosk, and what
/// a booth cannot tell (its clock, its mail when mail is off) is left out, not given as 0.
@Suite struct HeartbeatMetricsTests {
    /// Each sample line's series and value.
    static func samples(_ text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }

    @Test func theExporterLabelsEachBoothsSeries() {
        var b = HeartbeatSamples.well("booth-b")
        b.camera.present = false
        b.camera.missingSeconds = 42
        b.clock.synchronised = nil
        b.mail = nil
        b.outbox = .init(depth: 3, oldestSeconds: 1000, storeFailing: true, lastError: "x")
        let reports = [BoothReport(kiosk: "booth-a", heartbeat: HeartbeatSamples.well("booth-a"), ageSeconds: 12, online: true, problems: []),
                       BoothReport(kiosk: "booth-b", heartbeat: b, ageSeconds: 400, online: false, problems: [.offline(silentSeconds: 400)])]
        let values = Self.samples(HeartbeatMetrics.text(reports))
        #expect(values[#"recorder_fleet_booths{online="true"}"#] == 1 && values[#"recorder_fleet_booths{online="false"}"#] == 1)
        #expect(values[#"recorder_heartbeat_age_seconds{kiosk="booth-a"}"#] == 12)
        #expect(values[#"recorder_heartbeat_age_seconds{kiosk="booth-b"}"#] == 400)
        #expect(values[#"recorder_heartbeat_interval_seconds{kiosk="booth-b"}"#] == 60)
        #expect(values[#"recorder_camera_up{kiosk="booth-a"}"#] == 1 && values[#"recorder_camera_up{kiosk="booth-b"}"#] == 0)
        #expect(values[#"recorder_camera_missing_seconds{kiosk="booth-b"}"#] == 42)
        #expect(values[#"recorder_outbox_oldest_age_seconds{kiosk="booth-b"}"#] == 1000)
        #expect(values[#"recorder_store_failing{kiosk="booth-b"}"#] == 1)
        #expect(values[#"recorder_clock_synchronised{kiosk="booth-a"}"#] == 1)
        #expect(values[#"recorder_clock_synchronised{kiosk="booth-b"}"#] == nil, "a clock the booth cannot judge is left out")
        #expect(values[#"recorder_mail_refused{kiosk="booth-b"}"#] == nil, "no mail, no mail series")
        #expect(values[#"recorder_booth_info{kiosk="booth-a",name="Booth booth-a",version="0.5.0"}"#] == 1)
        #expect(values[#"recorder_encoder_info{kiosk="booth-a",encoder="libx264"}"#] == 1)
        #expect(values[#"recorder_last_upload_timestamp_seconds{kiosk="booth-a"}"#] == RFC3339Reference.seconds("2026-11-29T09:58:00Z"))
    }

    /// A name with a quote and a line break stays one label value (the exposition escapes it).
    @Test func aBoothsNameIsEscaped() {
        var beat = HeartbeatSamples.well()
        beat.name = "Anna \"&\" Ben\nbooth"
        let text = HeartbeatMetrics.text([BoothReport(kiosk: "booth-a", heartbeat: beat, ageSeconds: 1, online: true, problems: [])])
        #expect(text.split(separator: "\n").contains { $0.hasPrefix(#"recorder_booth_info{kiosk="booth-a",name="Anna \"&\" Ben\nbooth""#) })
    }
}

/// Seconds since 1970 of an RFC 3339 time, by Foundation's own parser.
enum RFC3339Reference {
    static func seconds(_ text: String) -> Double {
        ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970
    }
}
