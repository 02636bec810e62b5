/// Why a value could not be encoded (as JSON): what Swift's `EncodingError` says, as data, so a
/// failure can carry it (and `--json` give it) rather than its description.
package enum EncodingFailure: Error, Sendable, Hashable, Codable {
    /// A value the format cannot hold (JSON: a NaN or an infinity), of type `type`, at `path` (the
    /// coding path's keys, outermost first).
    case invalidValue(type: String, path: [String])
    /// An error of another type, named.
    case other(type: String)

    /// What `error`, thrown by an encoder, says.
    package init(_ error: any Error) {
        if case EncodingError.invalidValue(let value, let context) = error {
            self = .invalidValue(type: "\(Swift.type(of: value))", path: context.codingPath.map(\.stringValue))
        } else if let failure = error as? EncodingFailure {
            self = failure
        } else {
            self = .other(type: "\(Swift.type(of: error))")
        }
    }
}
