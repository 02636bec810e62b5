import FoundationEssentials
import RecorderCore

/// The JSON of `GET /api/status` and of every `status` event.
public struct KioskStatus: Codable, Sendable, Equatable {
    public struct Camera: Codable, Sendable, Equatable {
        public var device: String
        public var present: Bool
        public var previewRunning: Bool
    }

    public struct Progress: Codable, Sendable, Equatable {
        public var elapsedSeconds: Double
        public var totalSeconds: Double
        public var frames: Int
        public var dropped: Int
    }

    public struct CurrentShot: Codable, Sendable, Equatable {
        public var id: String
        public var createdAt: String
        public var durationSeconds: Double
        public var frames: Int
        public var framesDropped: Int
        public var width: Int
        public var height: Int
        public var byteSize: Int64
        public var endedEarly: String?
        public var cameraLost: String?
        /// Where the page plays it; nil once it went to the outbox.
        public var videoURL: String?
        /// The post it became, if it was posted.
        public var postedAs: String?
    }

    public struct Outbox: Codable, Sendable, Equatable {
        public var depth: Int
        public var queued: [String]
        public var uploading: String?
        public var uploadingBytes: Int64
        public var uploadingTotal: Int64
        public var lastError: String?
        public var retryInSeconds: Double?
        public var lastUploaded: String?
        public var lastUploadedURL: String?
        public var uploaded: Int
    }

    public struct Disk: Codable, Sendable, Equatable {
        public var workspaceFreeBytes: Int64?
        public var outboxFreeBytes: Int64?
        /// Too little room for one more kiosk shot (or for queueing it).
        public var low: Bool
    }

    /// idle, countdown, starting, recording, finishing, failed, camera-missing.
    public var state: String
    /// Seconds left while counting down.
    public var countdown: Int?
    /// Why the state is failed or camera-missing; when idle, why the last shot was not kept.
    public var message: String?
    public var camera: Camera
    public var progress: Progress?
    public var currentShot: CurrentShot?
    public var outbox: Outbox
    public var disk: Disk
    public var shotSeconds: Double
    public var countdownSeconds: Int
    public var version: String
}
