package import SystemSupport

/// Why talking to a store failed, and whether trying again later can help: its kind (what the code
/// decides by) and its reason, a case with its data (what the edges word: `OperatorWords.store`).
package struct StorageError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable, Codable {
        /// The network failed: no connection, reset, timeout, stalled transfer (a libcurl error code).
        case transport(code: Int)
        /// The store answered with an error status (S3 error code and message from the body, if any).
        case http(status: Int, code: String?)
        /// The store refused the credentials (403).
        case accessDenied
        /// The bucket or target directory does not exist.
        case missingContainer
        /// A local file could not be read or written (errno).
        case local(errno: Int32)
        /// The configuration is unusable (bad endpoint, missing credentials, unreadable credentials file).
        case configuration
        /// What the store holds differs from what was sent.
        case mismatch
    }

    package var kind: Kind
    /// What happened, with its data.
    package var reason: Reason
    /// True when the same request may succeed later: network faults, timeouts, 5xx, throttling.
    package var isRetryable: Bool
    /// The settings that would help, spelled by the edge that reports the error.
    package var advice: [SettingAdvice]

    package init(_ kind: Kind, _ reason: Reason, retryable: Bool, advice: [SettingAdvice] = []) {
        self.kind = kind
        self.reason = reason
        self.isRetryable = retryable
        self.advice = advice
    }

    /// For debugging only (the edges word it): its kind and its reason's data.
    package var description: String { "\(kind): \(reason)" }
}
