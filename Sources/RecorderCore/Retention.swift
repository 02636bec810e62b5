package import FoundationEssentials
import SystemSupport

/// How long posts live in the store (`retention.days`): a post created more than that long ago is
/// expired, and the kiosk's timer or `recorder feed --purge-expired --yes` deletes it.
package struct Retention: Sendable, Equatable {
    /// The post's life in seconds.
    package var seconds: Double

    package init(days: Double) {
        seconds = days * 86_400
    }

    /// `retention.days` (or another key of days: `retention.local_days`); nil when it is 0 or not
    /// set (kept until deleted).
    package init?(_ configuration: RecorderConfiguration, key: String = "retention.days") throws(RecorderError) {
        let days = try configuration.number(key)
        guard days > 0 else { return nil }
        self.init(days: days)
    }

    /// Posts created before this moment are expired at `now`.
    package func cutoff(at now: Date) -> Date {
        now.addingTimeInterval(-seconds)
    }

    /// When a post created at `createdAt` (RFC 3339) expires; nil when the time cannot be read.
    package func expiresAt(createdAt: String) -> Date? {
        RFC3339.date(createdAt).map { $0.addingTimeInterval(seconds) }
    }
}

/// Whose expired posts a purge deletes (`retention.scope`).
package enum RetentionScope: Sendable, Equatable {
    /// Only posts whose index key carries this kiosk's id (`kiosk.id`): kiosks sharing a store
    /// never delete each other's posts, and posts from before kiosks had ids are left alone.
    case own(String)
    /// Every post in the store, those without a kiosk id included (one kiosk, or the one that
    /// looks after a shared store).
    case store

    /// `retention.scope`, with this machine's `kiosk.id`.
    package init(_ configuration: RecorderConfiguration) throws(RecorderError) {
        self = configuration.text("retention.scope") == "store" ? .store : .own(try KioskID.configured(configuration))
    }

    /// Whether a post from kiosk `kiosk` (nil: from before kiosks had ids) is this scope's to delete.
    package func covers(_ kiosk: String?) -> Bool {
        switch self {
        case .store: true
        case .own(let id): kiosk == id
        }
    }
}

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
