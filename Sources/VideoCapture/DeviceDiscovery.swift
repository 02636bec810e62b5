internal import CV4L2
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
package import MediaValues

/// One V4L2 node as `recorder devices` shows it.
package struct DeviceDescription: Sendable {
    package var path: String
    /// The stable `/dev/v4l/by-id/...` name pointing at this node, if udev made one.
    package var stableName: String?
    package var driver: String
    package var card: String
    package var isCapture: Bool
    /// Whether this user may open the node; when false, `problem` says why.
    package var canOpen: Bool
    package var problem: String?
    package var formats: [FormatCapability]
}

/// Finds V4L2 nodes and resolves `--device` values: a path, a by-id name or an index.
package enum DeviceDiscovery {
    package static let devDirectory = "/dev"
    package static let byIdDirectory = "/dev/v4l/by-id"

    /// `/dev/video*` in numeric order.
    package static func nodes() -> [String] {
        let names = listDirectory(devDirectory).filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
        return names.sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }.map { "\(devDirectory)/\($0)" }
    }

    /// Every node, probed: identity, whether it captures, and its formats.
    package static func describeAll() -> [DeviceDescription] {
        let stable = stableNames()
        return nodes().map { describe($0, stableName: stable[$0]) }
    }

    package static func describe(_ path: String, stableName: String? = nil) -> DeviceDescription {
        var description = DeviceDescription(path: path, stableName: stableName, driver: "", card: "", isCapture: false,
                                            canOpen: false, problem: nil, formats: [])
        do {
            let device = try V4L2Device(path: path)
            description.canOpen = true
            do {
                let identity = try device.queryCapabilities()
                description.driver = identity.driver
                description.card = identity.card
                description.isCapture = true
                description.formats = device.enumerateFormats()
            } catch {
                description.problem = error.detail.isEmpty ? "not a capture device" : error.detail
            }
        } catch {
            description.problem = error.description
        }
        return description
    }

    /// The first node that can capture, or nil when the machine has no camera.
    package static func firstCaptureDevice() -> String? {
        nodes().first(where: isCaptureNode)
    }

    /// Whether `path` opens and reports video capture: one VIDIOC_QUERYCAP, no format enumeration.
    static func isCaptureNode(_ path: String) -> Bool {
        guard let device = try? V4L2Device(path: path) else { return false }
        return (try? device.queryCapabilities()) != nil
    }

    /// Whether the kiosk's camera is there: `device` (a path, by-id name or index), or for nil the
    /// first capture node. Cheap enough to repeat every few seconds: a plain open and one
    /// VIDIOC_QUERYCAP per node, without libv4l2's format emulation set-up.
    package static func probe(_ device: String?) -> CameraPresence {
        guard let device else {
            if let first = nodes().first(where: { rawCaptureCheck($0) == nil }) { return .present(first) }
            return .present(testPatternName)
        }
        let path: String
        do { path = try resolve(device) } catch { return .missing(error.description) }
        if let problem = rawCaptureCheck(path) { return .missing("\(path): \(problem).") }
        return .present(path)
    }

    /// How the kiosk names the stand-in source when there is no camera.
    package static let testPatternName = "test pattern (no camera found)"

    /// nil when `path` opens and reports video capture, else what is wrong.
    static func rawCaptureCheck(_ path: String) -> String? {
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) } catch { return error.description }
        // (only asked what it is)
        defer { Posix.closeAfterUse(fd) }
        var cap = v4l2_capability()
        guard cv4l2_raw_ioctl(fd, CV4L2_VIDIOC_QUERYCAP, &cap) == 0 else { return String(cString: strerror(errno)) }
        let caps = cap.capabilities & CV4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        return caps & CV4L2_CAP_VIDEO_CAPTURE != 0 ? nil : "not a video capture node"
    }

    /// Resolves `--device`: an index (`0` is the first capture device), a by-id name, or a path.
    package static func resolve(_ value: String) throws(CaptureError) -> String {
        if let index = Int(value) {
            let capture = nodes().filter(isCaptureNode)
            guard index >= 0, index < capture.count else {
                throw CaptureError(.noSuchDevice, device: "camera #\(index)", operation: "",
                                   detail: "There are \(capture.count) capture device(s).")
            }
            return capture[index]
        }
        if !value.contains("/") {
            let byId = "\(byIdDirectory)/\(value)"
            if Posix.allows(byId, F_OK) { return byId }
            let dev = "\(devDirectory)/\(value)"
            if Posix.allows(dev, F_OK) { return dev }
        }
        return value
    }

    /// Maps each real node path to its by-id symlink name.
    static func stableNames() -> [String: String] {
        var result: [String: String] = [:]
        for name in listDirectory(byIdDirectory) {
            let link = "\(byIdDirectory)/\(name)"
            guard let real = try? Posix.realPath(link) else { continue }
            result[real] = name
        }
        return result
    }

    static func listDirectory(_ path: String) -> [String] { DirectoryListing.namesIfReadable(path) }
}

/// Whether a camera can be opened right now.
package enum CameraPresence: Sendable, Equatable {
    /// The node that answered, or `DeviceDiscovery.testPatternName`.
    case present(String)
    /// What is wrong, in words.
    case missing(String)
}
