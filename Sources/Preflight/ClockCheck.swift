package import FoundationEssentials
import Settings
package import SystemSupport
package import PreflightValues

/// Whether the clock can be trusted: the posts' times, the share links' ends and retention go by
/// it, and an S3 store refuses requests signed more than 15 minutes off.
package enum ClockCheck {
    /// `synchronised`: what the time service says (`TimeSync`), nil when there is none to ask.
    package static func look(now: Date, synchronised: Bool?) -> PreflightFinding {
        let text = RFC3339.string(now)
        if now < RecorderVersion.madeAt { return .clockBeforeRelease(now: text, release: RFC3339.string(RecorderVersion.madeAt)) }
        switch synchronised {
        case true?: return .clockSynchronised(now: text)
        case false?: return .clockNotSynchronised(now: text)
        case nil: return .noTimeService(now: text)
        }
    }
}
