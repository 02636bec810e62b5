import Glibc

/// How one family of device failures (a camera's, a microphone's) is worded and what helps.
package protocol DeviceErrorKind: Sendable, Equatable, Encodable {
    /// What happened, and what to do about the device (settings go in `advice`).
    func describe(_ error: DeviceError<Self>) -> String
    /// The settings that would help, spelled by the edge that reports the error.
    var advice: [SettingAdvice] { get }
    /// Whether the list of the machine's devices helps (a device not found, lost, or not the
    /// right kind): each edge says where its user finds that list.
    var listingHelps: Bool { get }
}

/// A failed call on a device: which kind of failure, the device, the call and the errno it
/// failed with (copied where it failed), and a detail. `CaptureError` and `AudioError` are this,
/// each with its own kinds.
package struct DeviceError<Kind: DeviceErrorKind>: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    package var kind: Kind
    package var device: String
    /// The call that failed: "VIDIOC_STREAMON", "snd_pcm_open".
    package var operation: String
    /// The positive errno the call failed with, 0 when none.
    package var errno: Int32
    package var detail: String

    package init(_ kind: Kind, device: String, operation: String, errno: Int32 = 0, detail: String = "") {
        self.kind = kind
        self.device = device
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    /// " (operation: what the errno means)", " (operation)" without one: the end of a sentence.
    package var cause: String {
        errno != 0 ? " (\(operation): \(String(cString: strerror(errno))))" : (operation.isEmpty ? "" : " (\(operation))")
    }

    /// " detail", or nothing.
    package var extra: String { detail.isEmpty ? "" : " \(detail)" }

    package var description: String { kind.describe(self) }

    package var advice: [SettingAdvice] { kind.advice }

    /// Whether the list of the machine's devices helps with this failure.
    package var listingHelps: Bool { kind.listingHelps }
}
extension DeviceError: Decodable where Kind: Decodable {}
