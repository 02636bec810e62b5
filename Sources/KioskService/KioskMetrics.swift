import CoreMetrics
import Metrics
import Prometheus
import RecorderCore

/// The kiosk's Prometheus metrics, through swift-metrics with a registry of its own (no global
/// bootstrap, so several kiosks - in tests - do not share counters).
public final class KioskMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let shots: CoreMetrics.Counter
    let shotsCameraLost: CoreMetrics.Counter
    let shotsFailed: CoreMetrics.Counter
    let framesCaptured: CoreMetrics.Counter
    let framesDropped: CoreMetrics.Counter
    let encodeFPS: CoreMetrics.Gauge
    let postsQueued: CoreMetrics.Counter
    let postsUploaded: CoreMetrics.Counter
    let postsFailed: CoreMetrics.Counter
    let uploadBytes: CoreMetrics.Counter
    let uploadRetries: CoreMetrics.Counter
    let outboxDepth: CoreMetrics.Gauge
    let cameraUp: CoreMetrics.Gauge
    let recording: CoreMetrics.Gauge

    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        let factory = PrometheusMetricsFactory(registry: registry)
        shots = CoreMetrics.Counter(label: "recorder_shots_total", dimensions: [("result", "ok")], factory: factory)
        shotsCameraLost = CoreMetrics.Counter(label: "recorder_shots_total", dimensions: [("result", "camera_lost")], factory: factory)
        shotsFailed = CoreMetrics.Counter(label: "recorder_shots_total", dimensions: [("result", "failed")], factory: factory)
        framesCaptured = CoreMetrics.Counter(label: "recorder_frames_captured_total", factory: factory)
        framesDropped = CoreMetrics.Counter(label: "recorder_frames_dropped_total", factory: factory)
        encodeFPS = CoreMetrics.Gauge(label: "recorder_encode_fps", factory: factory)
        postsQueued = CoreMetrics.Counter(label: "recorder_posts_queued_total", factory: factory)
        postsUploaded = CoreMetrics.Counter(label: "recorder_posts_uploaded_total", factory: factory)
        postsFailed = CoreMetrics.Counter(label: "recorder_upload_failures_total", factory: factory)
        uploadBytes = CoreMetrics.Counter(label: "recorder_upload_bytes_total", factory: factory)
        uploadRetries = CoreMetrics.Counter(label: "recorder_upload_retries_total", factory: factory)
        outboxDepth = CoreMetrics.Gauge(label: "recorder_outbox_depth", factory: factory)
        cameraUp = CoreMetrics.Gauge(label: "recorder_camera_up", factory: factory)
        recording = CoreMetrics.Gauge(label: "recorder_recording", factory: factory)
    }

    func record(_ event: CameraManager.Event) {
        switch event {
        case .state(let state):
            if case .cameraMissing = state { cameraUp.record(0) } else { cameraUp.record(1) }
            recording.record(state == .recording ? 1 : 0)
        case .shotFinished(let result):
            (result.cameraLost == nil ? shots : shotsCameraLost).increment()
            framesCaptured.increment(by: result.shot.frames)
            framesDropped.increment(by: result.shot.framesDropped)
            if result.shot.durationSeconds > 0 {
                encodeFPS.record(Double(result.shot.frames) / result.shot.durationSeconds)
            }
        case .shotFailed:
            shotsFailed.increment()
        case .posted:
            postsQueued.increment()
        }
    }

    func record(_ event: OutboxDrain.Event) {
        switch event {
        case .changed(let status):
            outboxDepth.record(status.queued.count)
        case .uploaded(_, let bytes):
            postsUploaded.increment()
            uploadBytes.increment(by: Int(bytes))
        case .failed:
            postsFailed.increment()
        case .retrying:
            uploadRetries.increment()
        }
    }

    /// The Prometheus text exposition.
    public func text() -> String { registry.emitToString() }
}
