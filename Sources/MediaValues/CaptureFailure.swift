#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport

/// Why capture failed: the call, its errno and the camera (`DeviceError`), worded as what
/// happened and what to do about the camera; `advice` names the settings that would help.
package typealias CaptureError = DeviceError<CaptureFailure>

/// The kinds of capture failure.
package enum CaptureFailure: DeviceErrorKind {
    case noSuchDevice
    case notACaptureDevice
    case permissionDenied(group: String?)
    case busy
    case disconnected
    case stalled(seconds: Double)
    case unsupportedFormat
    case badInput
    case driverFailure

    package func describe(_ error: CaptureError) -> String {
        let (device, cause, extra, detail) = (error.device, error.cause, error.extra, error.detail)
        switch self {
        case .noSuchDevice:
            return "no such camera: \(device)\(cause).\(extra)"
        case .notACaptureDevice:
            return "\(device) is not a video capture device\(cause).\(extra) Pick a capture node (output-only and metadata nodes cannot record)."
        case .permissionDenied(let group):
            let groupText = group.map { "group '\($0)'" } ?? "its owning group"
            let groupName = group ?? "video"
            return "permission denied opening \(device)\(cause): it belongs to \(groupText). Fix: `sudo usermod -aG \(groupName) $USER` then log out and in again (for a service, add SupplementaryGroups=\(groupName)), or add a udev rule such as SUBSYSTEM==\"video4linux\", GROUP=\"\(groupName)\", MODE=\"0660\"."
        case .busy:
            return "\(device) is busy: another process is using it\(cause). Close the other program (`fuser -v \(device)` shows which) and try again."
        case .disconnected:
            return "the camera \(device) was lost (unplugged or reset)\(cause).\(extra) Check the cable."
        case .stalled(let seconds):
            return "\(device) delivered no frame for \(String(format2: seconds)) s\(cause). The camera may be stuck or starved of USB bandwidth: unplug it and plug it in again."
        case .unsupportedFormat:
            return "\(device): \(detail)"
        case .badInput:
            return "\(device): \(detail)"
        case .driverFailure:
            return "\(device): the driver refused the request\(cause).\(extra) Reconnect the camera."
        }
    }

    package var advice: [SettingAdvice] {
        switch self {
        case .noSuchDevice: [SettingAdvice(.camera, "testsrc", "for the built-in test pattern")]
        case .stalled: [SettingAdvice(.size, "WIDTHxHEIGHT", "with a smaller picture"), SettingAdvice(.frameRate, "N", "with fewer frames per second")]
        case .unsupportedFormat: [SettingAdvice(.pixelFormat, "auto", "to let recorder choose")]
        case .driverFailure: [SettingAdvice(.pixelFormat, "FORMAT", "with another of the camera's formats"), SettingAdvice(.size, "WIDTHxHEIGHT", "with another size")]
        case .notACaptureDevice, .permissionDenied, .busy, .disconnected, .badInput: []
        }
    }

    package var listingHelps: Bool {
        switch self {
        case .noSuchDevice, .notACaptureDevice, .disconnected: true
        case .permissionDenied, .busy, .stalled, .unsupportedFormat, .badInput, .driverFailure: false
        }
    }
}

extension CaptureError {
    /// Classifies an errno from `operation` on `device`.
    package static func from(errno code: Int32, device: String, operation: String) -> CaptureError {
        switch code {
        case ENOENT, ENXIO: return CaptureError(.noSuchDevice, device: device, operation: operation, errno: code)
        case EACCES, EPERM:
            return CaptureError(.permissionDenied(group: DevicePermissions.owningGroup(of: device)),
                                device: device, operation: operation, errno: code)
        case EBUSY: return CaptureError(.busy, device: device, operation: operation, errno: code)
        case ENODEV: return CaptureError(.disconnected, device: device, operation: operation, errno: code)
        case ENOTTY: return CaptureError(.notACaptureDevice, device: device, operation: operation, errno: code)
        default: return CaptureError(.driverFailure, device: device, operation: operation, errno: code)
        }
    }
}
