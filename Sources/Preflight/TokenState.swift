/// One of the kiosk's tokens as `recorder doctor` finds it.
package enum TokenState: Sendable, Equatable, Codable {
    /// None is set.
    case missing
    /// Set, and hard enough to guess (`bits`: the estimate `TokenStrength` makes; `origin`: where
    /// it came from, a file's path or a setting's origin).
    case strong(bits: Int, origin: String)
    /// Set, and too easy to guess: the kiosk refuses it.
    case weak(bits: Int, origin: String)
    /// Set with characters a token may not have (spaces, control characters, beyond ASCII).
    case notPrintable(origin: String)
    /// Its file is readable by other users (`mode`, octal): the kiosk refuses it.
    case readableByOthers(path: String, mode: String)
    /// Its file cannot be read.
    case unreadable(path: String)
    /// The booth's token is the operator's: the booth's screen could do everything.
    case sameAsOperator

    /// Whether the kiosk would refuse to start with it.
    package var isRefused: Bool {
        switch self {
        case .missing, .strong: false
        case .weak, .notPrintable, .readableByOthers, .unreadable, .sameAsOperator: true
        }
    }
}
