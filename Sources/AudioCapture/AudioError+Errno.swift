#if canImport(Glibc)
import Glibc
#endif
package import MediaValues
import SystemSupport

extension AudioError {
    /// Classifies the errno of a failed `snd_pcm_open` of `device` (the ALSA name): a missing
    /// device lists the microphones there are, a busy one names its holders, a forbidden one the
    /// group that may open it.
    package static func fromOpen(errno code: Int32, device: String) -> AudioError {
        let operation = "snd_pcm_open"
        let node = SoundNodes.cardAndDevice(of: device).map { SoundNodes.captureNode(card: $0.card, device: $0.device) }
        switch code {
        case ENOENT, ENODEV, ENXIO:
            // alsa-lib does not see a card whose control node this user may not open, and calls
            // it missing: name the permission instead.
            if let forbidden = SoundNodes.forbiddenControlNode() {
                return AudioError(.permissionDenied(group: DevicePermissions.owningGroup(of: forbidden)), device: device,
                                  operation: operation, errno: EACCES, detail: "\(forbidden) cannot be opened.")
            }
            return AudioError(.noSuchDevice(available: AudioDevices.list().map(\.name)), device: device,
                              operation: operation, errno: code)
        case EBUSY:
            return AudioError(.busy(holders: SoundNodes.holders(of: node)), device: device, operation: operation, errno: code)
        case EACCES, EPERM:
            let path = node ?? SoundNodes.forbiddenControlNode()
            return AudioError(.permissionDenied(group: path.flatMap(DevicePermissions.owningGroup(of:))), device: device,
                              operation: operation, errno: code)
        default:
            return from(errno: code, device: device, operation: operation)
        }
    }

    /// Classifies the errno of any other failed ALSA call on an open device.
    package static func from(errno code: Int32, device: String, operation: String, detail: String = "") -> AudioError {
        switch code {
        case ENODEV: AudioError(.disconnected, device: device, operation: operation, errno: code, detail: detail)
        case EBUSY:
            AudioError(.busy(holders: SoundNodes.holders(of: SoundNodes.cardAndDevice(of: device).map {
                SoundNodes.captureNode(card: $0.card, device: $0.device) })), device: device, operation: operation, errno: code, detail: detail)
        default: AudioError(.driverFailure, device: device, operation: operation, errno: code, detail: detail)
        }
    }
}
