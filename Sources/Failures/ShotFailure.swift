package import SystemSupport
package import MediaValues

/// Why a shot was not recorded, not kept, or not allowed, with its data; the edges word it.
package enum ShotFailure: RecorderFailure {
    // Asking for a shot
    /// A shot is counting down, starting, recording or finishing.
    case alreadyRecording
    /// The current shot is being queued as a post.
    case postingNow
    /// A post was asked for while a shot is under way.
    case recordingNow
    /// The configured camera cannot be opened (`why`: what the probe found, the device's words).
    case cameraMissing(why: String)
    /// A shot was asked for while the camera is missing (`why`: how it went); the kiosk watches
    /// for it to come back.
    indirect case cameraUnavailable(RecorderError)
    /// A countdown outside 0...60 seconds.
    case countdownOutOfRange(Int)
    /// Another process holds the workspace's lock.
    case workspaceBusy(root: String)
    case workspaceNotWritable(root: String)
    // The shot's settings (`ShotRequest.validate`), named by the edges as flags or keys
    case secondsNotPositive(Double)
    case secondsOverLimit(Double)
    case sizeOutOfRange(FrameSize)
    case frameRateOutOfRange(FrameRate)
    /// A preset x264 does not have (`known`: the ones it has).
    case unknownPreset(String, known: [String])
    case crfOutOfRange(Int)
    case bitrateOutOfRange(Int)
    /// The branding frame (`origin`: where the setting came from) does not exist.
    case overlayMissing(path: String, origin: String)
    /// The branding frame is a directory.
    case overlayIsDirectory(path: String, origin: String)
    /// The branding frame cannot be read, or is not a PNG libavcodec decodes.
    case overlayUnusable(path: String, origin: String, MediaError)
    /// A boomerang's take of `seconds`, outside `boomerangRange`.
    case boomerangSecondsOutOfRange(Double)
    /// The sound under a boomerang (`effect.sound`; `origin`: where it was set) is not a readable file.
    case effectSoundMissing(path: String, origin: String)
    /// Not enough room for the shot and its faststart copy.
    case notEnoughSpace(root: String, needed: Int64, free: Int64, seconds: Double)
    // Recording
    /// A stop (Ctrl-C, SIGTERM, the kiosk's Stop) before the first frame.
    case stoppedBeforeFirstFrame
    /// A stop after `recorded` seconds, under the `minimum` a shot must last.
    case stoppedUnderMinimum(recorded: Double, minimum: Double)
    /// The input (a Y4M file or pipe) ended before its first frame.
    case inputEndedBeforeFirstFrame(source: String)
    /// The disk filled up before the first whole second was written.
    case diskFullBeforeFirstSecond(root: String)
    /// The disk filled up after `recorded` seconds, under the `minimum`: nothing was kept.
    case diskFullUnderMinimum(root: String, recorded: Double, minimum: Double)
    /// The disk filled up after `recorded` seconds: those were kept as the current shot, and the
    /// previous one removed (`free`: the bytes free afterwards, when known). Not thrown: a shot's
    /// outcome says it.
    case diskFullKeptPart(root: String, recorded: Double, asked: Double, free: Int64?)
    // The workspace's shots
    /// Shot `id` is not the current shot any more (another was recorded).
    case notCurrentShot(id: String)
    /// A kept shot's folder cannot be deleted (the file system's reason).
    case cannotDeleteKept(directory: String, detail: String)

    package var kind: RecorderError.Kind {
        switch self {
        case .alreadyRecording, .postingNow, .recordingNow, .workspaceBusy: .busy
        case .cameraMissing, .cameraUnavailable: .unavailable
        case .countdownOutOfRange, .secondsNotPositive, .secondsOverLimit, .sizeOutOfRange, .frameRateOutOfRange,
             .unknownPreset, .crfOutOfRange, .bitrateOutOfRange, .boomerangSecondsOutOfRange: .invalidRequest
        case .workspaceNotWritable: .cannotWrite
        case .overlayMissing, .overlayIsDirectory, .effectSoundMissing: .notFound
        case .overlayUnusable(_, _, let error):
            error.call == "open" || error.call == "read" ? .notFound : (error.kind == .badInput ? .badData : .internalFailure)
        case .notEnoughSpace, .diskFullBeforeFirstSecond, .diskFullUnderMinimum, .diskFullKeptPart, .cannotDeleteKept: .ioFailure
        case .stoppedBeforeFirstFrame, .stoppedUnderMinimum: .interrupted
        case .inputEndedBeforeFirstFrame: .badData
        case .notCurrentShot: .notFound
        }
    }

    // The shot's settings' limits, as the failures above name them (`ShotRequest` checks them)
    /// A picture's width and height, in pixels.
    package static let sizeRange = 16...8192
    /// Frames per second.
    package static let frameRateRange = 1...240
    /// An average bitrate, in kbit/s.
    package static let bitrateRange = 50...200_000
    /// A boomerang's take, in seconds (`effect.boomerang_seconds`).
    package static let boomerangRange = 1.0...3.0

    /// A workspace on a larger disk: the advice when a shot's disk fills up.
    package static let largerDisk = SettingAdvice(.workspace, "DIRECTORY", "on a larger disk")

    package var advice: [SettingAdvice] {
        switch self {
        case .workspaceNotWritable: [SettingAdvice(.workspace, "DIRECTORY", "with another directory")]
        case .notEnoughSpace, .diskFullBeforeFirstSecond, .diskFullUnderMinimum, .diskFullKeptPart: [Self.largerDisk]
        default: cause?.advice ?? []
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .overlayUnusable(_, _, let error): .media(error)
        case .cameraUnavailable(let why): why
        default: nil
        }
    }
}


/// The consent text a guest agrees to cannot be used: `TextProblem(.consent, ...)`.
extension TextProblem {
    package static func consent(_ issue: Issue) -> RecorderError { RecorderError(TextProblem(.consent, issue)) }
}

extension ShotFailure {
    package var wrapped: RecorderError { .shot(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .shot(let failure) = error else { return nil }
        self = failure
    }
}
