import VideoCapture

extension SourceSelector {
    /// The camera node a shot from `device` would open ("auto" or nil: the first camera), without
    /// opening it for a shot; `device` itself when it is the test pattern, a file, or not there.
    /// What the camera's own microphone is found by (`AudioSelector.describe`).
    package static func cameraNode(_ device: String?) -> String {
        let value = device ?? "auto"
        if value == "auto" { return DeviceDiscovery.firstCaptureDevice() ?? testPattern }
        if value == testPattern || value.hasPrefix("y4m:") || value.hasSuffix(".y4m") { return value }
        return (try? DeviceDiscovery.resolve(value)) ?? value
    }
}
