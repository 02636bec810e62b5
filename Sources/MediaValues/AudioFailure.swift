#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport

/// Why sound capture failed: the ALSA call, its errno (ALSA returns -errno; this is positive) and
/// the device (`DeviceError`), worded as what happened and what to do about the microphone;
/// `advice` names the settings that would help.
package typealias AudioError = DeviceError<AudioFailure>

/// The kinds of sound capture failure.
package enum AudioFailure: DeviceErrorKind, Decodable {
    /// No such sound device; `available` lists the microphones there are, by stable name.
    case noSuchDevice(available: [String])
    case permissionDenied(group: String?)
    /// Another process holds the device; `holders` names it when that can be found.
    case busy(holders: String?)
    /// The device went away (ENODEV: a USB microphone unplugged).
    case disconnected
    /// No rate, channel count or sample format the recorder can use.
    case unsupportedFormat
    case driverFailure

    package func describe(_ error: AudioError) -> String {
        let (device, cause, extra) = (error.device, error.cause, error.extra)
        switch self {
        case .noSuchDevice(let available):
            if available.isEmpty {
                return "no such microphone: \(device)\(cause). This machine has no microphone."
            }
            return "no such microphone: \(device)\(cause). Microphones here: \(available.joined(separator: ", "))."
        case .permissionDenied(let group):
            let name = group ?? "audio"
            return "permission denied opening the microphone \(device)\(cause). Fix: `sudo usermod -aG \(name) $USER` then log out and in again (for a service, add SupplementaryGroups=\(name))."
        case .busy(let holders):
            let who = holders.map { " (held by \($0))" } ?? ""
            return "the microphone \(device) is busy: another process is using it\(who)\(cause). Close it (`fuser -v /dev/snd/*` shows which; a desktop sound server lets go of a card with `pw-reserve`)."
        case .disconnected:
            return "the microphone \(device) was lost (unplugged or reset)\(cause).\(extra) Check the cable."
        case .unsupportedFormat:
            return "the microphone \(device) offers no format the recorder can use\(cause).\(extra) Try its plughw: name, which converts in software."
        case .driverFailure:
            return "the microphone \(device): the driver refused the request\(cause).\(extra) Reconnect it."
        }
    }

    package var advice: [SettingAdvice] {
        let none = SettingAdvice(.microphone, "none", "to record without sound")
        switch self {
        case .noSuchDevice(let available):
            return available.isEmpty ? [none] : [SettingAdvice(.microphone, "DEVICE", "with one of them"), none]
        case .busy, .driverFailure, .unsupportedFormat, .disconnected: return [none]
        case .permissionDenied: return []
        }
    }

    package var listingHelps: Bool {
        switch self {
        case .noSuchDevice, .disconnected: true
        case .permissionDenied, .busy, .unsupportedFormat, .driverFailure: false
        }
    }
}
