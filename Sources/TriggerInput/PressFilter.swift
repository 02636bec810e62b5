/// Turns a button's key events into presses, as a booth needs them: a key held down (the driver
/// repeats it) is one press; a contact's bounce (edges a few milliseconds apart, on press or on
/// release) adds none; presses closer than `minimumInterval` count once, the guest page's rule for
/// its keys too.
package struct PressFilter: Sendable {
    /// An edge this soon after the previous one is the contact bouncing (microseconds).
    package var settle: Int64
    /// A press this soon after the last one counted is not another (microseconds).
    package var minimumInterval: Int64
    private var lastEdge: Int64?
    private var lastPress: Int64?

    package init(settle: Int64 = 30_000, minimumInterval: Int64 = 400_000) {
        self.settle = settle
        self.minimumInterval = minimumInterval
    }

    /// One key event: `value` as evdev gives it (1 down, 0 up, 2 the driver's repeat while held) at
    /// `microseconds` on a monotonic clock; true when it is a press.
    package mutating func key(value: Int32, at microseconds: Int64) -> Bool {
        switch value {
        case 1:
            defer { lastEdge = microseconds }
            if let edge = lastEdge, microseconds - edge < settle { return false }
            if let press = lastPress, microseconds - press < minimumInterval { return false }
            lastPress = microseconds
            return true
        case 0:
            lastEdge = microseconds
            return false
        default:
            return false
        }
    }
}
