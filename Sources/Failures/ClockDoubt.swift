
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
}
