import FoundationEssentials
package import Shooting
import Settings
import Publishing
package import ShotValues

/// The JSON of `GET /api/status` and of every `status` event.
package struct KioskStatus: Encodable, Sendable, Equatable {
    package struct Camera: Codable, Sendable, Equatable {
        package var device: String
        package var present: Bool
        package var previewRunning: Bool

        package init(device: String, present: Bool, previewRunning: Bool) {
            self.device = device
            self.present = present
            self.previewRunning = previewRunning
        }
    }

    package struct Progress: Codable, Sendable, Equatable {
        package var elapsedSeconds: Double
        package var totalSeconds: Double
        package var frames: Int
        package var dropped: Int
        /// The sound's level while recording, in dBFS (peak and RMS of the last ~100 ms).
        package var soundPeakDBFS: Double?
        package var soundRmsDBFS: Double?

        package init(elapsedSeconds: Double, totalSeconds: Double, frames: Int, dropped: Int,
                    soundPeakDBFS: Double? = nil, soundRmsDBFS: Double? = nil) {
            self.elapsedSeconds = elapsedSeconds
            self.totalSeconds = totalSeconds
            self.frames = frames
            self.dropped = dropped
            self.soundPeakDBFS = soundPeakDBFS
            self.soundRmsDBFS = soundRmsDBFS
        }
    }

    /// The sound the kiosk records (`audio.device`).
    package struct Sound: Codable, Sendable, Equatable {
        /// auto, none, beep, or an ALSA device name.
        package var choice: String
        /// Sound is off by configuration (`audio.device = none`).
        package var muted: Bool
        /// What a shot would record its sound from ("test beep", "hw:CARD=C920,DEV=0"); nil when
        /// there is none: sound off, or a camera without a microphone of its own.
        package var source: String?

        package init(choice: String, muted: Bool, source: String? = nil) {
            self.choice = choice
            self.muted = muted
            self.source = source
        }
    }

    package struct CurrentShot: Codable, Sendable, Equatable {
        package var id: String
        package var createdAt: String
        package var durationSeconds: Double
        package var frames: Int
        package var framesDropped: Int
        package var width: Int
        package var height: Int
        package var byteSize: Int64
        package var endedEarly: String?
        package var cameraLost: String?
        /// Where the page plays it; nil once it went to the outbox.
        package var videoURL: String?
        /// The post it became, if it was posted.
        package var postedAs: String?
        /// When that post was deleted (the operator, or its guest), if it was: still posted, gone.
        package var postDeletedAt: String?
        /// Its sound; nil for a silent shot.
        package var audio: ShotAudio?
        /// The effect it was made into, its take kept beside it; nil for none.
        package var effect: ShotEffect? = nil
        /// Why the effect was not made, or the sound left as recorded, when that failed: the
        /// failure in the operator's words (the page words the rest from `effect` and `audio`).
        package var effectFault: String? = nil
        package var loudnessFault: String? = nil

        package init(id: String, createdAt: String, durationSeconds: Double, frames: Int, framesDropped: Int,
                    width: Int, height: Int, byteSize: Int64, endedEarly: String? = nil,
                    cameraLost: String? = nil, videoURL: String? = nil, postedAs: String? = nil, postDeletedAt: String? = nil,
                    audio: ShotAudio? = nil) {
            self.id = id
            self.createdAt = createdAt
            self.durationSeconds = durationSeconds
            self.frames = frames
            self.framesDropped = framesDropped
            self.width = width
            self.height = height
            self.byteSize = byteSize
            self.endedEarly = endedEarly
            self.cameraLost = cameraLost
            self.videoURL = videoURL
            self.postedAs = postedAs
            self.postDeletedAt = postDeletedAt
            self.audio = audio
        }
    }

    package struct Outbox: Codable, Sendable, Equatable {
        package var depth: Int
        package var queued: [String]
        package var uploading: String?
        package var uploadingBytes: Int64
        package var uploadingTotal: Int64
        package var lastError: String?
        package var retryInSeconds: Double?
        package var lastUploaded: String?
        package var lastUploadedURL: String?
        package var uploaded: Int

        package init(depth: Int, queued: [String], uploading: String? = nil, uploadingBytes: Int64,
                    uploadingTotal: Int64, lastError: String? = nil, retryInSeconds: Double? = nil,
                    lastUploaded: String? = nil, lastUploadedURL: String? = nil, uploaded: Int) {
            self.depth = depth
            self.queued = queued
            self.uploading = uploading
            self.uploadingBytes = uploadingBytes
            self.uploadingTotal = uploadingTotal
            self.lastError = lastError
            self.retryInSeconds = retryInSeconds
            self.lastUploaded = lastUploaded
            self.lastUploadedURL = lastUploadedURL
            self.uploaded = uploaded
        }
    }

    /// The guest page's settings.
    package struct Booth: Codable, Sendable, Equatable {
        /// Seconds the review shows a new clip before the page returns to the live camera.
        package var reviewSeconds: Int
        /// "keep" or "discard": what the review's timeout does with a clip nobody posted.
        package var reviewUnposted: String
        /// The guest page's language: "en" or "de".
        package var language: String
        /// One more key that works like the record button (beside Space and Enter).
        package var triggerKey: String?
        /// Seconds without a guest before the start screen plays recent posts (muted) over the
        /// live camera; 0: never (`kiosk.attract_seconds`).
        package var attractSeconds: Int = 0
        /// A short beep at each number of the countdown and a higher one as recording starts
        /// (`kiosk.countdown_sound`).
        package var countdownSound: Bool = false
        /// The booth's own Wi-Fi (`kiosk.wifi_*`): the thank-you screen shows how to join it first.
        package var wifi: Wifi? = nil
        /// The effects a guest chooses from (`kiosk.effects`); empty: no choice on the start screen.
        package var effects: [String] = []
        /// The effect a shot gets now: the guest's choice, else the first offered, else `shoot.effect`.
        package var effect: String = ClipEffect.none.rawValue
    }

    /// The booth's own Wi-Fi as the thank-you screen shows it (its code: `/api/wifi/qr.svg`).
    package struct Wifi: Codable, Sendable, Equatable {
        package var name: String
        /// nil for an open network.
        package var password: String?
    }

    /// The booth's button (`kiosk.trigger`), which recorder reads itself.
    package struct Trigger: Codable, Sendable, Equatable {
        /// The setting: a device path, or auto with the words it looks for.
        package var setting: String
        /// waiting (not there), ready, unplugged, refused.
        package var state: String
        /// The device node in use, and its name.
        package var device: String?
        package var name: String?
        /// Why it is refused, and what to change.
        package var message: String?
        /// Presses since the kiosk started.
        package var presses: Int

        package init(setting: String, state: String, device: String? = nil, name: String? = nil,
                    message: String? = nil, presses: Int) {
            self.setting = setting
            self.state = state
            self.device = device
            self.name = name
            self.message = message
            self.presses = presses
        }
    }

    /// `kiosk.consent`: the text a guest must agree to before a shot starts.
    package struct ConsentStatus: Codable, Sendable, Equatable {
        /// The text's SHA-256 (the page sends it back with the yes).
        package var textSha256: String
        package var language: String
        /// A guest's yes holds now.
        package var given: Bool
        /// A shot was recorded under that yes: it now starts only its guest's Retake (which names
        /// the shot under review), never a press of the button or a plain shoot, which may be the
        /// next person's. False while no shot was recorded under it (any press may start one).
        package var retakesOnly: Bool = false
        /// Presses of the booth's button that started nothing (no yes yet), since the kiosk
        /// started: the page acts on each new one as on a touch.
        package var buttonPresses: Int
    }

    /// `kiosk.prompts`: the question the booth shows now.
    package struct Prompt: Codable, Sendable, Equatable {
        package var text: String
        /// Its place in the file (1-based), and how many there are.
        package var number: Int
        package var count: Int
    }

    package struct Disk: Codable, Sendable, Equatable {
        package var workspaceFreeBytes: Int64?
        package var outboxFreeBytes: Int64?
        /// Too little room for one more kiosk shot (or for queueing it).
        package var low: Bool

        package init(workspaceFreeBytes: Int64? = nil, outboxFreeBytes: Int64? = nil, low: Bool) {
            self.workspaceFreeBytes = workspaceFreeBytes
            self.outboxFreeBytes = outboxFreeBytes
            self.low = low
        }
    }

    /// idle, countdown, starting, recording, finishing, failed, camera-missing.
    package var state: String
    /// Which kiosk run this came from (random, new at each start) and how many state changes that
    /// run had made when it was taken: of two statuses from one run, the lower revision is older.
    /// Statuses are read while requests overlap (a poll answered after a newer event), so a page
    /// drops one older than what it shows.
    package var run: String
    package var revision: Int
    /// Seconds left while counting down.
    package var countdown: Int?
    /// Why the state is failed or camera-missing; when idle, why the last shot was not kept (the
    /// operator's detail: for the journal and the operator page).
    package var message: String?
    /// The same, as one plain sentence for the guest at the booth (GuestWording), in English.
    package var guestMessage: String?
    /// Its key in the guest page's table of strings (GuestStrings), for the page's language.
    package var guestKey: String?
    package var camera: Camera
    package var sound: Sound
    package var progress: Progress?
    package var currentShot: CurrentShot?
    package var outbox: Outbox
    package var disk: Disk
    package var booth: Booth
    /// nil when no button is configured.
    package var trigger: Trigger?
    package var shotSeconds: Double
    package var countdownSeconds: Int
    package var version: String
    /// nil when `kiosk.consent` is off.
    package var consent: ConsentStatus? = nil
    /// nil when `kiosk.prompts` is not set.
    package var prompt: Prompt? = nil
    /// Why the booth cannot take a guest now (the camera, the disk, the store, each with its
    /// numbers): the guest page shows "back in a moment", the operator page which and how far;
    /// nil in service.
    package var service: OutOfService? = nil

    package init(state: String, run: String, revision: Int, countdown: Int? = nil, message: String? = nil,
                guestMessage: String? = nil, guestKey: String? = nil, camera: Camera, sound: Sound,
                progress: Progress? = nil, currentShot: CurrentShot? = nil, outbox: Outbox, disk: Disk,
                booth: Booth, trigger: Trigger? = nil, shotSeconds: Double, countdownSeconds: Int,
                version: String, consent: ConsentStatus? = nil, prompt: Prompt? = nil,
                service: OutOfService? = nil) {
        self.state = state
        self.run = run
        self.revision = revision
        self.countdown = countdown
        self.message = message
        self.guestMessage = guestMessage
        self.guestKey = guestKey
        self.camera = camera
        self.sound = sound
        self.progress = progress
        self.currentShot = currentShot
        self.outbox = outbox
        self.disk = disk
        self.booth = booth
        self.trigger = trigger
        self.shotSeconds = shotSeconds
        self.countdownSeconds = countdownSeconds
        self.version = version
        self.consent = consent
        self.prompt = prompt
        self.service = service
    }
}
