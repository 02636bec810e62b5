package import FoundationEssentials
package import Failures
import Settings
import SystemSupport

extension ClockDoubt {
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
