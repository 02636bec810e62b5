package import VideoCapture
package import MediaValues
import Settings
package import ShotValues

/// Opens the frame source a `--device` value names.
package enum SourceSelector {
    package static let testPattern = "testsrc"

    /// Opens the source; `notes` tells the user about substitutions (no camera, different size...).
    package static func open(_ request: ShotRequest) throws(CaptureError) -> (source: any FrameSource, notes: [ShotNote]) {
        let value = request.device ?? "auto"
        if value == "auto" {
            guard let first = DeviceDiscovery.firstCaptureDevice() else {
                let source = try testPattern(request)
                return (source, [.noCamera])
            }
            return try camera(first, request)
        }
        if value == testPattern { return (try testPattern(request), []) }
        if value.hasPrefix("y4m:") { return (try Y4MSource(path: String(value.dropFirst(4))), []) }
        if value.hasSuffix(".y4m") { return (try Y4MSource(path: value), []) }
        return try camera(try DeviceDiscovery.resolve(value), request)
    }

    /// The test pattern's fastest, for slow motion: a camera's usual best.
    static let testPatternFastest = FrameRate(60)

    static func testPattern(_ request: ShotRequest) throws(CaptureError) -> TestPatternSource {
        try TestPatternSource(size: request.capture.size ?? CaptureRequest.defaultSize,
                              frameRate: request.effect == .slowmo ? testPatternFastest : request.capture.frameRate ?? CaptureRequest.defaultFrameRate)
    }

    static func camera(_ path: String, _ request: ShotRequest) throws(CaptureError) -> (source: any FrameSource, notes: [ShotNote]) {
        var capture = request.capture
        // Slow motion: the camera's fastest rate at the chosen size, as it says it offers.
        capture.fastest = request.effect == .slowmo
        let source = try V4L2CaptureSource(path: path, request: capture, stallTimeout: request.stallTimeout)
        let chosen = source.choice
        var notes: [ShotNote] = chosen.differences.map { difference in
            switch difference {
            case .closestSize(let asked, let offered): .closestSize(asked: asked, offered: offered)
            case .closestRate(let asked, let offered, let size): .closestRate(asked: asked, offered: offered, size: size)
            }
        }
        if source.format.width != chosen.size.width || source.format.height != chosen.size.height {
            notes.append(.sizeAdjusted(width: source.format.width, height: source.format.height))
        }
        if source.format.pixelFormat != chosen.pixelFormat {
            notes.append(.formatSwitched(format: source.format.pixelFormat.name))
        }
        if chosen.isEmulated {
            notes.append(.convertedInSoftware(format: chosen.pixelFormat.name))
        }
        return (source, notes)
    }
}
