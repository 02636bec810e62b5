/// What is wrong with a booth, as its heartbeat (or its silence) tells, each case with its numbers:
/// `recorder fleet`, the fleet page and the exporter's readers word them at their edges
/// (`FleetWording`), each with what to do.
package enum BoothProblem: Sendable, Equatable, Hashable {
    /// No heartbeat for `silentSeconds`, more than `FleetJudge.offlineIntervals` intervals: the
    /// booth is off, or cannot reach the store.
    case offline(silentSeconds: Int)
    /// The booth's own view (its fleet page): its heartbeat has not reached the store for
    /// `seconds` (`lastError`, in its operator's words), so the rest of the fleet sees it go silent.
    case heartbeatNotWritten(seconds: Int, lastError: String?)
    /// The object under `fleet/` is not a heartbeat this version reads (another format, or damaged).
    case unreadable(format: Int?)
    /// The camera has been missing for `seconds`.
    case cameraMissing(seconds: Int)
    /// The camera streamed at `fps` frames a second while asked for `nominal`, or dropped
    /// `dropped` of the frames of the last minute.
    case cameraSlow(fps: Double, nominal: Double, dropped: Int, delivered: Int)
    /// `queued` posts wait, the oldest for `oldestSeconds`, and the last attempt to reach the store
    /// failed (`lastError`, in the booth's operator words).
    case storeFailing(queued: Int, oldestSeconds: Int, lastError: String?)
    /// The disk holds `hoursLeft` hours of recording (`freeBytes` free), or less than one more shot.
    case diskLow(freeBytes: Int64?, hoursLeft: Double?)
    /// No time service has synchronised the booth's clock (posts' dates and retention doubt it).
    case clockNotSynchronised
    /// `count` guests' mails were refused for good and wait for the operator.
    case mailRefused(count: Int)
    /// The booth takes no guest now, for a cause none of the above names (`causes`, as the booth
    /// named them).
    case outOfService(causes: [String])
    /// The last shot failed.
    case shotFailed
    /// The booth's last preflight found `errors` errors (`checks`, by id).
    case doctorFound(errors: Int, checks: [String])

    /// A short stable name for scripts and the page (`--json`'s `problem`).
    package var name: String {
        switch self {
        case .offline: "offline"
        case .heartbeatNotWritten: "heartbeat-not-written"
        case .unreadable: "unreadable"
        case .cameraMissing: "camera-missing"
        case .cameraSlow: "camera-slow"
        case .storeFailing: "store-failing"
        case .diskLow: "disk-low"
        case .clockNotSynchronised: "clock-not-synchronised"
        case .mailRefused: "mail-refused"
        case .outOfService: "out-of-service"
        case .shotFailed: "shot-failed"
        case .doctorFound: "doctor-found-errors"
        }
    }
}
