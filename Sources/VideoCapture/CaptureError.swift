#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport

/// Why capture failed, with the errno and the operation: a message that says what happened and
/// what to do about the camera, and `advice`, the settings that would help (each edge spells them).
package struct CaptureError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case noSuchDevice
        case notACaptureDevice
        case permissionDenied(group: String?)
        case busy
        case disconnected
        case stalled(seconds: Double)
        case unsupportedFormat
        case badInput
        case driverFailure
    }

    package var kind: Kind
    package var device: String
    package var operation: String
    package var errno: Int32
    package var detail: String

    package init(_ kind: Kind, device: String, operation: String, errno: Int32 = 0, detail: String = "") {
        self.kind = kind
        self.device = device
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

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

    package var description: String {
        let cause = errno != 0 ? " (\(operation): \(String(cString: strerror(errno))))" : (operation.isEmpty ? "" : " (\(operation))")
        let extra = detail.isEmpty ? "" : " \(detail)"
        switch kind {
        case .noSuchDevice:
            return "no such camera: \(device)\(cause).\(extra) Run `recorder devices` to list cameras."
        case .notACaptureDevice:
            return "\(device) is not a video capture device\(cause).\(extra) Pick a capture node from `recorder devices` (output-only and metadata nodes cannot record)."
        case .permissionDenied(let group):
            let groupText = group.map { "group '\($0)'" } ?? "its owning group"
            let groupName = group ?? "video"
            return "permission denied opening \(device)\(cause): it belongs to \(groupText). Fix: `sudo usermod -aG \(groupName) $USER` then log out and in again (for a service, add SupplementaryGroups=\(groupName)), or add a udev rule such as SUBSYSTEM==\"video4linux\", GROUP=\"\(groupName)\", MODE=\"0660\"."
        case .busy:
            return "\(device) is busy: another process is using it\(cause). Close the other program (`fuser -v \(device)` shows which) and try again."
        case .disconnected:
            return "the camera \(device) was lost (unplugged or reset)\(cause).\(extra) Check the cable and run `recorder devices`."
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
}

extension CaptureError {
    /// The settings that would help, spelled by the edge that reports the error.
    package var advice: [SettingAdvice] {
        switch kind {
        case .noSuchDevice: [SettingAdvice(.camera, "testsrc", "for the built-in test pattern")]
        case .stalled: [SettingAdvice(.size, "WIDTHxHEIGHT", "with a smaller picture"), SettingAdvice(.frameRate, "N", "with fewer frames per second")]
        case .unsupportedFormat: [SettingAdvice(.pixelFormat, "auto", "to let recorder choose")]
        case .driverFailure: [SettingAdvice(.pixelFormat, "FORMAT", "with another of the camera's formats"), SettingAdvice(.size, "WIDTHxHEIGHT", "with another size")]
        case .notACaptureDevice, .permissionDenied, .busy, .disconnected, .badInput: []
        }
    }
}
