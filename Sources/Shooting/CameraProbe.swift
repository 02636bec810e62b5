package import SystemSupport
import VideoCapture
package import MediaValues

/// The camera a shot would use, opened as a shot opens it until its first frame, then closed:
/// `recorder doctor`'s look at the camera before an event. (The kiosk never opens its camera for
/// this: it looks at its own preview instead, so a shot under way keeps its camera.)
package enum CameraProbe {
    package enum Outcome: Sendable, Equatable {
        /// It opened and gave a frame.
        case works(CameraFacts)
        /// `auto` and no camera: a shot would record the built-in test pattern.
        case noCamera
        /// The test pattern or a file was asked for: no camera to look at.
        case notACamera(String)
        /// It cannot be used (or gave no frame in time).
        case unusable(device: String, trouble: DeviceTrouble)
    }

    /// Opens the camera `request.device` names ("auto" or nil: the first), with the request's size,
    /// rate and format, and waits at most `frameWait` seconds for a frame. Blocking; `stop` ends
    /// the wait early (then the camera counts as stalled for as long as it waited).
    package static func look(_ request: ShotRequest, frameWait: Double = 8, stop: StopSignal) -> Outcome {
        let value = request.device ?? "auto"
        let path: String
        if value == "auto" {
            guard let first = DeviceDiscovery.firstCaptureDevice() else { return .noCamera }
            path = first
        } else if value == SourceSelector.testPattern || value.hasPrefix("y4m:") || value.hasSuffix(".y4m") {
            return .notACamera(value)
        } else {
            do throws(CaptureError) { path = try DeviceDiscovery.resolve(value) } catch {
                return .unusable(device: value, trouble: DeviceTrouble(error))
            }
        }
        let opened = MonotonicClock.nowMicroseconds()
        let source: V4L2CaptureSource
        do throws(CaptureError) {
            source = try V4L2CaptureSource(path: path, request: request.capture, stallTimeout: frameWait)
        } catch {
            return .unusable(device: path, trouble: DeviceTrouble(error))
        }
        let framed: Bool
        do throws(CaptureError) {
            framed = try source.nextFrame(stop: stop) { _ in }
        } catch {
            source.close()
            return .unusable(device: path, trouble: DeviceTrouble(error))
        }
        let waited = MonotonicClock.nowMicroseconds() - opened
        let format = source.format, choice = source.choice
        source.close()
        guard framed else { return .unusable(device: path, trouble: .stalled(seconds: Double(waited) / 1_000_000)) }
        let description = DeviceDiscovery.describe(path)
        return .works(CameraFacts(
            device: path, card: description.card, driver: description.driver, format: format.pixelFormat.name,
            width: format.width, height: format.height, framesPerSecond: format.frameRate.value, emulated: choice.isEmulated,
            formats: description.formats.compactMap { $0.pixelFormat?.name }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } },
            firstFrameMilliseconds: Int(waited / 1000)))
    }
}
