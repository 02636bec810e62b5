import Glibc
package import SystemSupport
package import PreflightValues

/// Whether the kiosk's unit runs, as systemd says (`systemctl show`).
package enum ServiceCheck {
    /// Blocking (runs systemctl, at most 10 s).
    package static func look(unit: String, systemctl: String) -> PreflightFinding {
        guard Posix.allows(systemctl, X_OK),
              let (ending, bytes) = ChildProcess.output(systemctl, ["show", unit, "--property=LoadState,ActiveState,SubState,UnitFileState,NRestarts"],
                                                       timeout: 10),
              ending == .exited(0) else { return .noSystemd }
        var values: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]).trimmed() }
        }
        guard let load = values["LoadState"], let active = values["ActiveState"] else { return .noSystemd }
        if load == "not-found" { return .serviceNotInstalled(unit: unit) }
        guard active == "active" || active == "reloading" else {
            return .serviceDown(unit: unit, state: active, subState: values["SubState"] ?? "")
        }
        return .serviceRunning(unit: unit, enabled: values["UnitFileState"] == "enabled", restarts: Int(values["NRestarts"] ?? "") ?? 0)
    }
}
