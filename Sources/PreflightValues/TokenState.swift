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

    /// A token the kiosk refuses, or no operator's token where one is needed (beyond loopback, or
    /// with a booth's token), is an error; no token on loopback, or no booth's token (the booth's
    /// screen logs in with the operator's, which can do everything), a warning.
    package static func status(operatorToken: TokenState, boothToken: TokenState, beyondLoopback: Bool) -> PreflightCheck.Status {
        if operatorToken.isRefused || boothToken.isRefused { return .error }
        if operatorToken == .missing { return beyondLoopback || boothToken != .missing ? .error : .warning }
        return boothToken == .missing ? .warning : .ok
    }
}
