package import StoreValues
package import StoreValues

/// Why a store refused, as data: the store's own error kinds, for the edges to word.
package enum StoreFault: Sendable, Equatable, Codable {
    /// No connection, a reset, a timeout (libcurl's error code).
    case network(curlCode: Int)
    /// An error status, with the S3 error code when the body had one.
    case http(status: Int, code: String?)
    /// The credentials were refused.
    case denied
    /// The bucket or the store's directory is not there.
    case missing
    /// A local file or directory could not be written (errno).
    case local(errno: Int32)
    /// The settings cannot reach a store (`reason`: why, with its data).
    case configuration(StorageError.Reason)
    /// What came back is not what was written.
    case mismatch

    package init(_ error: StorageError) {
        switch error.kind {
        case .transport(let code): self = .network(curlCode: code)
        case .http(let status, let code): self = .http(status: status, code: code)
        case .accessDenied: self = .denied
        case .missingContainer: self = .missing
        case .local(let code): self = .local(errno: code)
        case .configuration: self = .configuration(error.reason)
        case .mismatch: self = .mismatch
        }
    }
}
