import SystemSupport

/// Why a camera or a microphone cannot be used, as data for the edges that say so (`recorder
/// doctor`, the operator page): the kind, and the call and errno where a driver refused.
package enum DeviceTrouble: Error, Sendable, Equatable, Codable {
    /// No such device (unplugged, or a name that is not there).
    case notThere
    /// No permission; `group`: the group that owns the node, when known.
    case permission(group: String?)
    /// Another program has it open.
    case busy
    /// A node that cannot capture (a metadata or output node).
    case notACaptureDevice
    /// It went away while in use.
    case disconnected
    /// It gave nothing for this long.
    case stalled(seconds: Double)
    /// No format, size or rate it offers can be used.
    case unsupportedFormat
    /// The driver refused a call (`operation`, with `errno`; 0 when none).
    case driverRefused(operation: String, errno: Int32)

    package init(_ error: CaptureError) {
        switch error.kind {
        case .noSuchDevice: self = .notThere
        case .permissionDenied(let group): self = .permission(group: group)
        case .busy: self = .busy
        case .notACaptureDevice: self = .notACaptureDevice
        case .disconnected: self = .disconnected
        case .stalled(let seconds): self = .stalled(seconds: seconds)
        case .unsupportedFormat: self = .unsupportedFormat
        case .badInput, .driverFailure: self = .driverRefused(operation: error.operation, errno: error.errno)
        }
    }

    package init(_ error: AudioError) {
        switch error.kind {
        case .noSuchDevice: self = .notThere
        case .permissionDenied(let group): self = .permission(group: group)
        case .busy: self = .busy
        case .disconnected: self = .disconnected
        case .unsupportedFormat: self = .unsupportedFormat
        case .driverFailure: self = .driverRefused(operation: error.operation, errno: error.errno)
        }
    }
}
