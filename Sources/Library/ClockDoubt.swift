import Settings
package import FoundationEssentials

/// Why this machine's clock cannot be trusted to say which posts have expired: a purge under it
/// could delete a whole store (a box without a real-time clock that starts in 1970, or jumps
/// ahead), so it is refused until the clock is plausible again.
package enum ClockDoubt: Sendable, Equatable, Codable {
    /// Now is before this version of recorder was made.
    case beforeRelease(now: String, release: String)
    /// Now is more than `tolerance` before the newest post in the store was made.
    case behindNewestPost(now: String, newest: String, id: String)
    /// A time service runs (timedatectl says NTP is on) and says the clock is not synchronised.
    case notSynchronised

    /// How far behind the newest post the clock may be (another kiosk's clock a little ahead).
    package static let tolerance = 600.0

    /// What is wrong and what to do, for the operator (the journal, the operator page, the CLI).
    package var explanation: String {
        switch self {
        case .beforeRelease(let now, let release):
            "this machine's clock says \(now), before this version of recorder was made (\(release)): it has lost the time (no real-time clock, or its battery is flat). Set the time (timedatectl set-time, or a time server: timedatectl set-ntp true); expired posts are deleted once it is right."
        case .behindNewestPost(let now, let newest, let id):
            "this machine's clock says \(now), but post \(id) in the store was made at \(newest): one of the clocks is wrong. Check this machine's time (timedatectl) and that of the kiosk that made it; expired posts are deleted once the clocks agree."
        case .notSynchronised:
            "this machine's time service says the clock is not synchronised (timedatectl: System clock synchronized: no), so it may have jumped. Let it reach its time server (timedatectl timesync-status); expired posts are deleted once it is synchronised."
        }
    }

    /// The doubt about `now`, or nil when it is plausible: it is after this version was made, not
    /// behind the newest post (`newest`, when the store has one), and synchronised as far as
    /// `synchronised` can tell (nil: no time service to ask).
    package static func about(_ now: Date, newest: (id: String, createdAt: Date)?, synchronised: Bool?) -> ClockDoubt? {
        if now < RecorderVersion.madeAt {
            return .beforeRelease(now: RFC3339.string(now), release: RFC3339.string(RecorderVersion.madeAt))
        }
        if let newest, now.addingTimeInterval(tolerance) < newest.createdAt {
            return .behindNewestPost(now: RFC3339.string(now), newest: RFC3339.string(newest.createdAt), id: newest.id)
        }
        if synchronised == false { return .notSynchronised }
        return nil
    }
}
