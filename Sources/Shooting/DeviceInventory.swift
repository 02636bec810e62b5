import AudioCapture
import VideoCapture
import MediaValues

/// The cameras and microphones this machine has, as `recorder devices` lists them: every V4L2
/// node with its formats and whether this user may open it, and the ALSA capture devices, each
/// with the camera it is built into.
package struct DeviceInventory: Sendable {
    /// One V4L2 node (`recorder devices --json` encodes these as they are).
    package struct Camera: Sendable, Encodable {
        package struct Format: Sendable, Encodable {
            package var fourcc: String
            /// recorder's name for it; nil when recorder cannot read it.
            package var name: String?
            package var description: String
            /// Converted by libv4l, not the camera's own.
            package var emulated: Bool
            package var sizes: String
        }

        package var path: String
        package var byId: String?
        package var driver: String
        package var card: String
        package var capture: Bool
        package var canOpen: Bool
        package var problem: String?
        package var formats: [Format]
        /// The stable ALSA name of the camera's own microphone, when it has one.
        package var microphone: String?

        init(_ d: DeviceDescription, microphone: String?) {
            path = d.path
            byId = d.stableName
            driver = d.driver
            card = d.card
            capture = d.isCapture
            canOpen = d.canOpen
            problem = d.problem
            formats = d.formats.map { Format(fourcc: $0.fourcc, name: $0.pixelFormat?.name, description: $0.label,
                                             emulated: $0.isEmulated, sizes: $0.sizeSummary) }
            self.microphone = microphone
        }
    }

    /// One ALSA capture device.
    package struct Microphone: Sendable {
        /// Its stable name (`hw:CARD=...,DEV=...`).
        package var name: String
        package var cardName: String
        /// The camera node it is built into, when it is a camera's own.
        package var camera: String?
    }

    /// Capture nodes (and with `all`, every node, and nodes this user may not open).
    package var cameras: [Camera]
    package var microphones: [Microphone]
    /// Why no microphone can be seen, when a permission hides them.
    package var microphoneProblem: String?

    /// Looks at the devices now; `all`: also the nodes that cannot capture.
    package static func look(all: Bool) -> DeviceInventory {
        let devices = DeviceDiscovery.describeAll().filter { all || $0.isCapture || !$0.canOpen }
        let microphones = AudioDevices.list()
        // A USB camera's microphone is another interface of the same USB device; the first
        // capture node listed claims it (a UVC camera also has a metadata node).
        var cameraOfMicrophone: [String: String] = [:]
        for device in devices where device.isCapture {
            if let mic = AudioDevices.microphone(pairedWithCamera: device.path, among: microphones),
               cameraOfMicrophone[mic.name] == nil {
                cameraOfMicrophone[mic.name] = device.path
            }
        }
        let microphoneOfCamera = Dictionary(cameraOfMicrophone.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return DeviceInventory(
            cameras: devices.map { Camera($0, microphone: microphoneOfCamera[$0.path]) },
            microphones: microphones.map { Microphone(name: $0.name, cardName: $0.cardName, camera: cameraOfMicrophone[$0.name]) },
            microphoneProblem: microphones.isEmpty ? AudioDevices.permissionProblem() : nil)
    }

    /// The V4L2 nodes there are now (for completing `--device`).
    package static func cameraNodes() -> [String] { DeviceDiscovery.nodes() }

    /// The microphones' stable names (for completing `--audio`).
    package static func microphoneNames() -> [String] { AudioDevices.list().map(\.name) }
}

extension MicrophoneCheck {
    /// Opens every microphone there is now; nil, with why none shows, when there is none.
    package static func everyMicrophone() -> Result<MicrophoneCheck, MicrophoneCheck.NoneFound> {
        let microphones = AudioDevices.list()
        guard !microphones.isEmpty else { return .failure(NoneFound(problem: AudioDevices.permissionProblem())) }
        return .success(MicrophoneCheck(microphones))
    }

    /// No microphone could be seen; `problem`: a permission that hides them, when that is why.
    package struct NoneFound: Error, Sendable {
        package var problem: String?
    }
}
