package import SystemSupport

/// Why talking to a store failed, and whether trying again later can help.
package struct StorageError: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable, Encodable {
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
    /// What happened and what to do about it, in the store's terms (no edge's flags).
    package var message: String
    /// True when the same request may succeed later: network faults, timeouts, 5xx, throttling.
    package var isRetryable: Bool
    /// The settings that would help, spelled by the edge that reports the error.
    package var advice: [SettingAdvice]

    package init(_ kind: Kind, _ message: String, retryable: Bool, advice: [SettingAdvice] = []) {
        self.kind = kind
        self.message = message
        self.isRetryable = retryable
        self.advice = advice
    }

    package var description: String { message }

    private enum CodingKeys: String, CodingKey { case kind, retryable }

    /// Its kind and whether trying again can help (its message is words).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(isRetryable, forKey: .retryable)
    }
}
