package import FleetValues
import PreflightValues
import SystemSupport

/// The operator's words for what is wrong with a booth of the fleet (`recorder fleet`, the fleet
/// page): what the heartbeat (or its silence) says, then what to do, at the booth or the store.
/// Settings are spelled as configuration keys.
package enum FleetWording {
    package struct Words: Encodable, Sendable, Equatable {
        /// A few words for the table's column.
        package var title: String
        /// What was found, with its numbers.
        package var what: String
        /// What to do.
        package var fix: String
    }

    package static func words(_ problem: BoothProblem) -> Words {
        switch problem {
        case .offline(let seconds):
            Words(title: "offline",
                  what: "no heartbeat for \(duration(seconds)): the booth is off, has lost its network, or cannot reach the store.",
                  fix: "Look at the booth: its power, its network, and its operator page (/admin), which says what it cannot reach.")
        case .heartbeatNotWritten(let seconds, let lastError):
            Words(title: "store unreachable",
                  // (the error is a sentence of its own words, its full stop dropped before ours)
                  what: "this booth's heartbeat has not reached the store for \(duration(seconds))\(lastError.map { ": " + ($0.hasSuffix(".") ? String($0.dropLast()) : $0) } ?? ""). The fleet sees it as offline.",
                  fix: "Check the store's address and credentials (backend, s3.* or local.path) and the booth's network; posts wait in the outbox meanwhile.")
        case .unreadable(let format):
            Words(title: "unreadable",
                  what: format.map { "its heartbeat is of format \($0); this recorder reads format \(Heartbeat.currentFormat)." }
                      ?? "its heartbeat in the store is not one recorder can read (damaged, or not written by recorder).",
                  fix: format == nil ? "Look at the object fleet/<kiosk.id>.json in the store; the booth writes it again at its next heartbeat."
                      : "Use the same recorder version where the fleet is read as on the booths.")
        case .cameraMissing(let seconds):
            Words(title: "camera missing",
                  what: "the camera has been missing for \(duration(seconds)).",
                  fix: "Plug the camera in again (check its cable and USB hub); the booth takes it back by itself.")
        case .cameraSlow(let fps, let nominal, let dropped, let delivered):
            Words(title: "camera slow",
                  what: "the camera delivered \(String(cFormat: "%.1f", fps)) frames a second\(nominal > 0 ? " of the \(String(cFormat: "%.0f", nominal)) asked" : "") and dropped \(dropped) of \(dropped + delivered) frames in the last minute.",
                  fix: "Give the camera more light (in the dark it slows its exposure), a USB port of its own, or ask for less (shoot.size, shoot.fps).")
        case .storeFailing(let queued, let oldest, let lastError):
            Words(title: "store failing",
                  what: "\(queued) post\(queued == 1 ? "" : "s") wait\(queued == 1 ? "s" : "") for the store, the oldest for \(duration(oldest))\(lastError.map { "; the last attempt failed: \($0)" } ?? ".")",
                  fix: "Check the store's address and credentials (backend, s3.* or local.path) and the booth's network; the posts are kept and sent once it answers.")
        case .diskLow(let free, let hours):
            Words(title: "disk nearly full",
                  what: [free.map { "\(ByteCount.human($0)) free" }, hours.map { "about \(String(cFormat: "%.1f", $0)) h of recording left" }]
                      .compactMap { $0 }.joined(separator: ", ") + (free == nil && hours == nil ? "too little room for one more shot." : "."),
                  fix: "Make room on the booth's disk (retention.local_days removes its old copies once they are in the store), or give it a larger one.")
        case .clockNotSynchronised:
            Words(title: "clock not synchronised",
                  what: "no time service has synchronised the booth's clock: the posts' dates and retention go by it.",
                  fix: "Give the booth a network with NTP and turn its time service on (timedatectl set-ntp true).")
        case .mailRefused(let count):
            Words(title: "mail refused",
                  what: "the mail server refused \(count) guest\(count == 1 ? "'s mail" : "s' mails") for good; \(count == 1 ? "it is" : "they are") kept.",
                  fix: "Fix what the booth's operator page says about them (mail.*), then send them again from there.")
        case .outOfService(let causes):
            Words(title: "out of service",
                  what: "the booth takes no guest now (\(causes.joined(separator: ", "))).",
                  fix: "The booth's operator page (/admin) says why; it comes back by itself once the cause has cleared.")
        case .shotFailed:
            Words(title: "shot failed",
                  what: "the booth's last shot failed.",
                  fix: "The booth's operator page (/admin) says why; the next shot may work.")
        case .doctorFound(let errors, let checks):
            Words(title: "preflight errors",
                  what: "the booth's last preflight found \(errors) error\(errors == 1 ? "" : "s")\(checks.isEmpty ? "" : " (\(checks.map(checkTitle).joined(separator: ", ")))").",
                  fix: "Open the booth's operator page (/admin): the preflight at its top says what to do for each.")
        }
    }

    /// A preflight check's title, by its id.
    static func checkTitle(_ id: String) -> String {
        PreflightCheck.ID(rawValue: id).map { PreflightWording.title($0) } ?? id
    }

    /// "45 s", "12 min", "3 h 5 min", "2 d 4 h".
    package static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<120: "\(seconds) s"
        case ..<7200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3600) h\(seconds % 3600 / 60 > 0 ? " \(seconds % 3600 / 60) min" : "")"
        default: "\(seconds / 86400) d\(seconds % 86400 / 3600 > 0 ? " \(seconds % 86400 / 3600) h" : "")"
        }
    }
}
