package import Settings
package import PreflightValues

/// The kiosk's two tokens: present, hard to guess, kept private, and not the same.
package enum TokenCheck {
    /// `beyondLoopback`: the kiosk listens where other machines reach it (it needs the operator's
    /// token then).
    package static func look(operatorToken: TokenReading, boothToken: TokenReading, listen: String, beyondLoopback: Bool) -> PreflightFinding {
        var booth = state(boothToken)
        if let token = boothToken.token, token == operatorToken.token { booth = .sameAsOperator }
        return .tokens(operatorToken: state(operatorToken), boothToken: booth, listen: listen, beyondLoopback: beyondLoopback)
    }

    static func state(_ reading: TokenReading) -> TokenState {
        switch reading {
        case .none: return .missing
        case .readableByOthers(let path, let mode): return .readableByOthers(path: path, mode: String(mode, radix: 8))
        case .unreadable(let path): return .unreadable(path: path)
        case .token(let token, let origin):
            guard token.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) else { return .notPrintable(origin: origin) }
            let bits = TokenStrength.estimatedBits(token)
            return bits >= TokenStrength.minimumBits ? .strong(bits: Int(bits), origin: origin) : .weak(bits: Int(bits), origin: origin)
        }
    }
}
