/// Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And Jitter"):
/// the n-th wait is uniform in [0, min(cap, initial * 2^n)], so many kiosks that lost the network
/// together do not come back in lock step.
package struct RetryPolicy: Sendable, Equatable {
    package var initialSeconds: Double
    package var maximumSeconds: Double
    /// How many attempts in all; nil retries retryable failures forever.
    package var maximumAttempts: Int?

    package init(initialSeconds: Double = 1, maximumSeconds: Double = 60, maximumAttempts: Int? = nil) {
        self.initialSeconds = initialSeconds
        self.maximumSeconds = maximumSeconds
        self.maximumAttempts = maximumAttempts
    }

    /// The upper bound of the wait after `failures` consecutive failures (1 = after the first).
    package func ceiling(afterFailures failures: Int) -> Double {
        let exponent = Double(min(max(failures - 1, 0), 60))
        return min(maximumSeconds, initialSeconds * pow2(exponent))
    }

    /// A random wait in [0, ceiling].
    package func delay<G: RandomNumberGenerator>(afterFailures failures: Int, using generator: inout G) -> Double {
        let ceiling = ceiling(afterFailures: failures)
        return ceiling <= 0 ? 0 : Double.random(in: 0...ceiling, using: &generator)
    }

    package func delay(afterFailures failures: Int) -> Double {
        var generator = SystemRandomNumberGenerator()
        return delay(afterFailures: failures, using: &generator)
    }

    /// Whether another attempt is allowed after `attempts` have been made.
    package func allowsAnother(after attempts: Int) -> Bool {
        guard let maximumAttempts else { return true }
        return attempts < maximumAttempts
    }

    private func pow2(_ e: Double) -> Double {
        var v = 1.0
        for _ in 0..<Int(e) { v *= 2 }
        return v
    }
}
