package import Settings
package import Failures

extension Setting {
    /// The fleet's settings (`fleet.*`): each kiosk's heartbeat in the store.
    package static let fleet: [Setting] = [
        Setting("fleet.heartbeat_seconds", .number(1...3600, integer: true), default: "60",
                "how often the kiosk writes its heartbeat into the store, overwriting fleet/<kiosk.id>.json (its state, camera, microphone, button, disk, outbox, mail, clock, last preflight and last problem; no guest's data), for recorder fleet, the fleet page (/fleet) and the Prometheus exporter; a booth whose heartbeat is over 3 times this old counts as offline"),
    ]
}

extension RecorderConfiguration {
    /// `fleet.heartbeat_seconds`.
    package var heartbeatSeconds: Int {
        get throws(RecorderError) { Int(try number("fleet.heartbeat_seconds")) }
    }
}
