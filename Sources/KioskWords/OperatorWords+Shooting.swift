import Settings
import SystemSupport
import Failures

extension OperatorWords {
    static func shot(_ failure: ShotFailure) -> String {
        switch failure {
        case .alreadyRecording:
            "a shot is already being recorded. Wait for it to finish or stop it first."
        case .postingNow:
            "the current shot is being posted right now; try again in a moment."
        case .recordingNow:
            "a shot is being recorded; post when it has finished."
        case .cameraMissing(let why):
            why
        case .cameraUnavailable(let why):
            "the camera is not available: \(message(why)) Plug it in; the kiosk picks it up by itself."
        case .countdownOutOfRange(let seconds):
            "the countdown must be 0 to 60 seconds (got \(seconds))."
        case .workspaceBusy(let root):
            "another recorder is recording into this workspace (\(root)/.lock is locked). Wait for it to finish, or give this one another workspace."
        case .workspaceNotWritable(let root):
            "the shot workspace \(root) is not writable. Fix its permissions."
        case .secondsNotPositive(let seconds):
            "shoot.seconds = \(Setting.Rule.format(seconds)) must be more than 0, e.g. 15."
        case .secondsOverLimit(let seconds):
            "shoot.seconds = \(Setting.Rule.format(seconds)) is more than the limit of \(Int(Setting.maximumShotSeconds)) (6 hours). Record shorter shots."
        case .sizeOutOfRange(let size):
            "shoot.size = \(size) is out of range: width and height must be \(range(ShotFailure.sizeRange)), e.g. 1280x720."
        case .frameRateOutOfRange(let rate):
            "shoot.fps = \(rate) is out of range: use \(range(ShotFailure.frameRateRange)), e.g. 30."
        case .unknownPreset(let preset, let known):
            "shoot.preset = \(preset) is not an x264 preset. Use one of: \(known.joined(separator: ", "))."
        case .crfOutOfRange(let crf):
            "shoot.crf = \(crf) is out of range: use 0 (lossless) to 51 (worst); 23 is the default."
        case .bitrateOutOfRange(let kbps):
            "shoot.bitrate = \(kbps) is out of range: give kbit/s from \(range(ShotFailure.bitrateRange)), e.g. 4000."
        case .overlayMissing(let path, let origin):
            "shoot.overlay = \(path) (from \(origin)): there is no such file. Give the full path of a PNG with transparency (a branding frame), or leave it out."
        case .overlayIsDirectory(let path, let origin):
            "shoot.overlay = \(path) (from \(origin)) is a directory. Give the full path of a PNG with transparency (a branding frame) in it, or leave it out."
        case .overlayUnusable(let path, let origin, _):
            "shoot.overlay = \(path) (from \(origin)) " + overlayFix(failure)
        case .boomerangSecondsOutOfRange(let seconds):
            "a boomerang's take of \(Setting.Rule.format(seconds)) s is out of range: effect.boomerang_seconds must be \(Setting.Rule.format(ShotFailure.boomerangRange.lowerBound)) to \(Setting.Rule.format(ShotFailure.boomerangRange.upperBound)), e.g. 2."
        case .effectSoundMissing(let path, let origin):
            "effect.sound = \(path) (from \(origin)) is not a file this user can read. Give the full path of a sound file, or leave it empty for a silent boomerang."
        case .notEnoughSpace(let root, let needed, let free, let seconds):
            "not enough disk space in \(root): about \(ByteCount.human(needed)) needed for \(String(cFormat: "%g", seconds)) s, \(ByteCount.human(free)) free. Free some space or record a shorter shot; the previous shot was kept."
        case .stoppedBeforeFirstFrame:
            "stopped before the first frame: nothing was recorded, and the previous shot is still the current one."
        case .stoppedUnderMinimum(let recorded, let minimum):
            String(cFormat: "stopped after %.1f s, under the %g s a shot must last: it was discarded, and the previous shot is still the current one.", recorded, minimum)
        case .inputEndedBeforeFirstFrame(let source):
            "\(source) ended before its first frame: nothing was recorded, and the previous shot is still the current one. Check that the input has frames (ffprobe -count_frames)."
        case .diskFullBeforeFirstSecond(let root):
            "the disk filled up before the first second of the shot was written: nothing was kept, and the previous shot is still the current one. Free some space in \(root)."
        case .diskFullUnderMinimum(let root, let recorded, let minimum):
            String(cFormat: "the disk filled up after %.1f s, under the %g s a shot must last: it was discarded, and the previous shot is still the current one. ", recorded, minimum)
                + "Free some space in \(root)."
        case .diskFullKeptPart(let root, let recorded, let asked, let free):
            "the disk in \(root) filled up after \(seconds(recorded)) s: those \(String(cFormat: "%.1f of the %g s asked", recorded, asked)) were kept as the current shot, and the previous shot was removed to free space (\(free.map(ByteCount.human) ?? "?") free now). Free more space before the next shot."
        case .notCurrentShot(let id):
            "shot \(id) is not the current shot any more; nothing was deleted."
        case .cannotDeleteKept(let directory, let detail):
            "cannot delete the kept shot \(directory): \(detail)"
        }
    }

    /// After "the branding frame X ": why it cannot be used, and what to give instead.
    static func overlayFix(_ failure: ShotFailure) -> String {
        let unreadable = failure.kind == .notFound
        return "cannot be used (\(cause(failure))). " + (unreadable ? "Make it readable by this user." : "Give a PNG (export it from your design tool as PNG with transparency).")
    }

    static func range(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }
}
