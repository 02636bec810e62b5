import SystemSupport
#if canImport(Glibc)
import Glibc
#endif
package import MediaValues
package import StoreValues

extension RecorderError {
    /// What happened, named for the failure rather than for any edge's status: the CLI turns it
    /// into a sysexits status, the kiosk into an HTTP status.
    package enum Kind: String, Sendable, CaseIterable {
        /// A bad option, argument or request.
        case invalidRequest
        /// Bad input data: a caption, a damaged file, a shot already posted.
        case badData
        /// No such camera, file, post or shot.
        case notFound
        /// A camera or service there but not answering: unavailable, stalled, lost, refused.
        case unavailable
        /// A bug, or a failure the recorder cannot explain.
        case internalFailure
        /// A directory or file that cannot be created or written.
        case cannotWrite
        /// A disk full, or a read or write that failed.
        case ioFailure
        /// Something else is using it: try again in a moment.
        case busy
        /// Not allowed: a permission, a token, a consent.
        case denied
        /// A setting that is wrong or missing.
        case misconfigured
        /// Stopped on purpose before there was anything to keep.
        case interrupted
    }
}

// What each lower error's kind means here: the one mapping, so the edges only map `Kind`.
extension RecorderError.Kind {
    package init(_ error: CaptureError) {
        switch error.kind {
        case .noSuchDevice, .notACaptureDevice: self = .notFound
        case .permissionDenied: self = .denied
        case .busy: self = .busy
        case .disconnected, .stalled, .driverFailure: self = .unavailable
        case .unsupportedFormat: self = .invalidRequest
        case .badInput: self = .badData
        }
    }

    package init(_ error: MediaError) {
        switch error.kind {
        case .diskFull: self = .ioFailure
        case .permissionDenied: self = .cannotWrite
        case .missingCodec: self = .unavailable
        case .badInput: self = .badData
        case .failed: self = .internalFailure
        }
    }

    package init(_ error: AudioError) {
        switch error.kind {
        case .noSuchDevice: self = .notFound
        case .permissionDenied: self = .denied
        case .busy, .disconnected, .driverFailure: self = .unavailable
        case .unsupportedFormat: self = .invalidRequest
        }
    }

    package init(_ error: StorageError) {
        switch error.kind {
        case .accessDenied: self = .denied
        case .missingContainer, .configuration: self = .misconfigured
        case .local(let code) where [EACCES, EPERM, EROFS, ENOENT, ENOTDIR].contains(code): self = .cannotWrite
        case .local: self = .ioFailure
        case .transport, .http, .mismatch: self = error.isRetryable ? .busy : .unavailable
        }
    }
}
