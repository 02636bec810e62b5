import SystemSupport

/// Whether the system clock is synchronised, as `timedatectl` tells: true or false when a time
/// service is on (NTP=yes), nil when it cannot tell (no timedatectl, no systemd, no time service).
package enum TimeSync {
    package static func synchronised(timedatectl: String = "/usr/bin/timedatectl") -> Bool? {
        guard let (ending, bytes) = ChildProcess.output(timedatectl, ["show", "--property=NTP", "--property=NTPSynchronized"], timeout: 10),
              ending == .exited(0) else { return nil }
        var values: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]).trimmed() }
        }
        guard values["NTP"] == "yes", let synced = values["NTPSynchronized"] else { return nil }
        return synced == "yes"
    }
}
