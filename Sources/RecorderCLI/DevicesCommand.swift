import ArgumentParser
import FoundationEssentials
import RecorderCore
import VideoCapture

/// `recorder devices`: every V4L2 node, what it can capture, and whether this user may open it.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras with their formats, sizes and frame rates.")

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Also list nodes that cannot capture (metadata, output, codec nodes) and formats recorder cannot read.")
    var all = false

    func run() throws {
        let devices = DeviceDiscovery.describeAll().filter { all || $0.isCapture || !$0.canOpen }
        if output.json {
            printJSON(devices.map(DeviceListing.init))
            return
        }
        if devices.isEmpty {
            print("No V4L2 capture devices found. `recorder shoot --device testsrc` records the built-in test pattern.")
            return
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

    init(_ d: DeviceDescription) {
        path = d.path
        byId = d.stableName
        driver = d.driver
        card = d.card
        capture = d.isCapture
        canOpen = d.canOpen
        problem = d.problem
        formats = d.formats.map { Format(fourcc: $0.fourcc, name: $0.pixelFormat?.name, description: $0.label,
                                         emulated: $0.isEmulated, sizes: $0.sizeSummary) }
    }
}
