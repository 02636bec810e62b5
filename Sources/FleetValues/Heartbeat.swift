/// What a booth writes into the store every `fleet.heartbeat_seconds` (`fleet/<kiosk id>.json`,
/// one object per booth, overwritten): enough for whoever reads the store (`recorder fleet`, the
/// fleet page, the Prometheus exporter) to tell whether it is well and, when not, what to do. The
/// booth's own state and counts only: no guest's post, caption, address or share token.
///
/// Times are RFC 3339 by the booth's clock (which `clock` says whether to trust); the readers judge
/// a heartbeat's age by the store's clock (the object's last-modified time) where it has one.
package struct Heartbeat: Codable, Sendable, Equatable {
    /// The object's format; a reader skips what it does not know and says so.
    package static let currentFormat = 1

    package var format: Int
    /// `kiosk.id`.
    package var kiosk: String
    /// `author_name`: what the operator calls the booth.
    package var name: String
    /// recorder's version.
    package var version: String
    /// This run of the kiosk (a restart writes another).
    package var run: String
    /// When this heartbeat was written (the booth's clock).
    package var at: String
    /// When this run started.
    package var startedAt: String
    /// `fleet.heartbeat_seconds`: the next one is due this long after `at`.
    package var intervalSeconds: Int
    /// The camera's state: idle, countdown, starting, recording, finishing, failed, camera-missing.
    package var state: String
    /// Why the booth takes no guest now (camera, disk, store), as `OutOfService` names its causes;
    /// empty while it is in service.
    package var outOfService: [String]
    package var camera: Camera
    package var microphone: Microphone
    /// The booth's button (`kiosk.trigger`); nil when none is configured.
    package var button: Button?
    package var disk: Disk
    package var outbox: Outbox
    /// Guests' mail (`mail.*`); nil when it is off.
    package var mail: Mail?
    /// When the last post reached the store (this run), nil before the first.
    package var lastPostAt: String?
    package var clock: ClockState
    /// The last preflight the booth ran (the operator page's checks); nil before the first.
    package var doctor: Doctor?
    /// The kiosk's last warning or error, in the operator's words; nil when there was none.
    package var lastError: LastError?

    package struct Camera: Codable, Sendable, Equatable {
        /// The configured camera (a device path, auto or testsrc).
        package var device: String
        package var present: Bool
        /// How long it has been missing, 0 while it is present.
        package var missingSeconds: Int
        /// Over the last minute: seconds the camera streamed (a shot or the live preview), the
        /// frames it delivered and those it dropped (sequence gaps), and the rate while it streamed.
        package var streamingSeconds: Double
        package var framesDelivered: Int
        package var framesDropped: Int
        /// Frames a second while streaming in the last minute; nil when it did not stream.
        package var fps: Double?
        /// The rate the camera was asked for (its negotiated format); nil before it first streamed.
        package var nominalFPS: Double?
        /// The last shot's encoder (libx264, or copy for a camera's own H.264); nil before the first.
        package var encoder: String?

        package init(device: String, present: Bool, missingSeconds: Int, streamingSeconds: Double, framesDelivered: Int, framesDropped: Int,
                     fps: Double?, nominalFPS: Double?, encoder: String?) {
            self.device = device
            self.present = present
            self.missingSeconds = missingSeconds
            self.streamingSeconds = streamingSeconds
            self.framesDelivered = framesDelivered
            self.framesDropped = framesDropped
            self.fps = fps
            self.nominalFPS = nominalFPS
            self.encoder = encoder
        }
    }

    package struct Microphone: Codable, Sendable, Equatable {
        /// `audio.device`: auto, none, beep or an ALSA name.
        package var choice: String
        /// What a shot records its sound from; nil when nothing (sound off, or no microphone).
        package var source: String?

        package init(choice: String, source: String?) {
            self.choice = choice
            self.source = source
        }
    }

    package struct Button: Codable, Sendable, Equatable {
        /// The reader's state: connected, missing, busy...
        package var state: String
        package var device: String?

        package init(state: String, device: String?) {
            self.state = state
            self.device = device
        }
    }

    package struct Disk: Codable, Sendable, Equatable {
        /// The lesser of the workspace's and the outbox's free bytes.
        package var freeBytes: Int64?
        /// Hours of recording that room holds at the configured bitrate.
        package var hoursLeft: Double?
        /// Short of room for one more shot (the booth is out of service).
        package var low: Bool

        package init(freeBytes: Int64?, hoursLeft: Double?, low: Bool) {
            self.freeBytes = freeBytes
            self.hoursLeft = hoursLeft
            self.low = low
        }
    }

    package struct Outbox: Codable, Sendable, Equatable {
        /// Posts waiting for the store.
        package var depth: Int
        /// How long the oldest has waited; nil when none waits.
        package var oldestSeconds: Int?
        /// The last attempt to reach the store failed.
        package var storeFailing: Bool
        /// That failure, in the operator's words.
        package var lastError: String?

        package init(depth: Int, oldestSeconds: Int?, storeFailing: Bool, lastError: String?) {
            self.depth = depth
            self.oldestSeconds = oldestSeconds
            self.storeFailing = storeFailing
            self.lastError = lastError
        }
    }

    package struct Mail: Codable, Sendable, Equatable {
        package var waiting: Int
        /// Refused for good and kept, for the operator to send again.
        package var refused: Int

        package init(waiting: Int, refused: Int) {
            self.waiting = waiting
            self.refused = refused
        }
    }

    package struct ClockState: Codable, Sendable, Equatable {
        /// Whether a time service has synchronised the clock; nil when the booth cannot tell.
        package var synchronised: Bool?

        package init(synchronised: Bool?) {
            self.synchronised = synchronised
        }
    }

    package struct Doctor: Codable, Sendable, Equatable {
        package var at: String
        /// Nothing found would stop the event.
        package var ready: Bool
        package var errors: Int
        package var warnings: Int
        /// The checks that found an error or a warning, errors first, by id (`camera`, `store`...).
        package var problems: [String]

        package init(at: String, ready: Bool, errors: Int, warnings: Int, problems: [String]) {
            self.at = at
            self.ready = ready
            self.errors = errors
            self.warnings = warnings
            self.problems = problems
        }
    }

    package struct LastError: Codable, Sendable, Equatable {
        package var at: String
        package var message: String

        package init(at: String, message: String) {
            self.at = at
            self.message = message
        }
    }

    package init(kiosk: String, name: String, version: String, run: String, at: String, startedAt: String, intervalSeconds: Int,
                 state: String, outOfService: [String], camera: Camera, microphone: Microphone, button: Button?, disk: Disk,
                 outbox: Outbox, mail: Mail?, lastPostAt: String?, clock: ClockState, doctor: Doctor?, lastError: LastError?) {
        format = Self.currentFormat
        self.kiosk = kiosk
        self.name = name
        self.version = version
        self.run = run
        self.at = at
        self.startedAt = startedAt
        self.intervalSeconds = intervalSeconds
        self.state = state
        self.outOfService = outOfService
        self.camera = camera
        self.microphone = microphone
        self.button = button
        self.disk = disk
        self.outbox = outbox
        self.mail = mail
        self.lastPostAt = lastPostAt
        self.clock = clock
        self.doctor = doctor
        self.lastError = lastError
    }
}
