/// Where the booth's button is, as the status and the operator page show it.
package enum TriggerState: Sendable, Equatable {
    /// No such device (yet): not plugged in, or no device's name matches.
    case waiting
    /// Open and taken (EVIOCGRAB): its presses start and stop shots.
    case ready(device: String, name: String)
    /// It was ready and went away (unplugged); it is taken again when it comes back.
    case unplugged(device: String, name: String)
    /// It is there but cannot be used; `why` says what to change. Tried again every second.
    case refused(device: String, why: String)

    /// waiting, ready, unplugged, refused.
    package var name: String {
        switch self {
        case .waiting: "waiting"
        case .ready: "ready"
        case .unplugged: "unplugged"
        case .refused: "refused"
        }
    }
}
