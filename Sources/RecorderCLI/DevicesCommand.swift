import ArgumentParser
import AudioCapture
import FoundationEssentials
import RecorderCore
import VideoCapture

/// `recorder devices`: every V4L2 node, what it can capture, and whether this user may open it;
/// then the microphones (ALSA capture devices), each with the camera it is built into.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras with their formats, sizes and frame rates.")

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Also list nodes that cannot capture (metadata, output, codec nodes) and formats recorder cannot read.")
    var all = false

    func run() throws {
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
        if output.json {
            let microphoneOfCamera = Dictionary(cameraOfMicrophone.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            printJSON(devices.map { DeviceListing($0, microphone: microphoneOfCamera[$0.path]) })
            return
        }
        if devices.isEmpty {
            print("No V4L2 capture devices found. `recorder shoot --device testsrc` records the built-in test pattern.")
        }
        var captureIndex = 0
        for device in devices {
            let index = device.isCapture ? "[\(captureIndex)] " : ""
            if device.isCapture { captureIndex += 1 }
            print("\(index)\(device.path)  \(device.card.isEmpty ? "" : "\(device.card) ")\(device.driver.isEmpty ? "" : "(\(device.driver))")")
            if let stable = device.stableName { print("    by-id: \(stable)") }
            print("    access: \(device.canOpen ? "yes" : "no")\(device.problem.map { " - \($0)" } ?? "")")
            for format in device.formats where all || format.pixelFormat != nil {
                let supported = format.pixelFormat == nil ? " (not supported)" : ""
                let emulated = format.isEmulated ? " (emulated by libv4l)" : ""
                print("    \(format.fourcc) \(format.label)\(supported)\(emulated): \(format.sizeSummary)")
            }
        }
        printMicrophones(microphones, cameraOfMicrophone: cameraOfMicrophone)
    }

    /// "Microphones:", then one line each: stable name, card name, and the camera it belongs to.
    private func printMicrophones(_ microphones: [AudioDeviceInfo], cameraOfMicrophone: [String: String]) {
        guard !microphones.isEmpty else {
            print(AudioDevices.permissionProblem().map { "No microphone found: \($0)" } ?? "No microphone found.")
            return
        }
        print("Microphones:")
        for mic in microphones {
            let camera = cameraOfMicrophone[mic.name].map { " (microphone of \($0))" } ?? ""
            print("  \(mic.name)  \(mic.cardName)\(camera)")
        }
    }
}

/// The JSON shape of one device in `recorder devices --json`.
struct DeviceListing: Encodable {
    struct Format: Encodable {
        var fourcc: String
        var name: String?
        var description: String
        var emulated: Bool
        var sizes: String
    }

    var path: String
    var byId: String?
    var driver: String
    var card: String
    var capture: Bool
    var canOpen: Bool
    var problem: String?
    var formats: [Format]
    /// The stable ALSA name of the camera's own microphone, when it has one.
    var microphone: String?

    init(_ d: DeviceDescription, microphone: String? = nil) {
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
