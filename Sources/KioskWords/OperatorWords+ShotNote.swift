import Glibc
package import ShotValues
import SystemSupport
package import MediaValues
import StoreValues

/// A shot's notes (`ShotNote`) and the failures shots record (`ShotFault`) in the operator's
/// words: the journal's, the operator page's, and the command line's with its own words for a
/// failure (`fault`). Settings as configuration keys.
extension OperatorWords {
    /// What `note` tells, one sentence; a failure inside it worded by `fault`.
    package static func note(_ note: ShotNote, fault: (ShotFault) -> String = fault) -> String {
        switch note {
        case .noCamera:
            "no camera found: recording the built-in test pattern, with its test beep unless audio.device says otherwise (shoot.device picks a camera)"
        case .closestSize(let asked, let offered):
            "asked for \(asked), the camera offers \(offered) as the closest size"
        case .closestRate(let asked, let offered, let size):
            "asked for \(asked) fps, the camera offers \(offered) fps at \(size)"
        case .sizeAdjusted(let width, let height):
            "the driver adjusted the size to \(width)x\(height)"
        case .formatSwitched(let format):
            "the driver switched the format to \(format)"
        case .convertedInSoftware(let format):
            "\(format) is converted by libv4l in software, which costs CPU"
        case .noSoundFromFile:
            "no sound: a file has no microphone (audio.device picks one)"
        case .noMicrophone(let camera):
            "no sound: \(camera) has no microphone of its own (audio.device picks another)"
        case .microphoneUnopenable(let failure):
            "no sound: the camera's microphone could not be opened: \(fault(failure))"
        case .soundStoppedEarly(let stop):
            "the sound stopped early: \(audioStop(stop))"
        case .silentTake(let loudest, let below):
            "silent take: nothing louder than \(Int(below)) dBFS was heard (loudest \(loudest) dBFS). Is the microphone muted, its gain at zero, or the wrong one chosen (audio.device)?"
        case .clippedTake(let percent):
            "clipped take: the sound was at full scale in \(percent)% of it and will sound distorted. Turn the microphone's gain down (alsamixer)."
        case .framesRepeated(let count):
            "the camera handed over \(count) frame(s) a second time; each was recorded once"
        case .diskFilled(let kept, let asked, let dropped):
            String(cFormat: "the disk filled up: kept %.1f of the %g s asked, as recorded (not remuxed), ", kept, asked)
                + "\(ByteCount.human(dropped)) of a half-written fragment dropped"
        case .remuxFailed(let failure):
            "kept the crash-safe fragmented recording: the faststart remux failed: \(fault(failure))"
        case .leftoversRemoved(let path):
            "removed leftovers of an interrupted shot: \(path)"
        case .deletionFinished(let id):
            "finished deleting shot \(id), which a stop (a crash or a power cut) had interrupted"
        case .deletionUnfinished(let id, let failure):
            "could not finish deleting shot \(id), which a stop had interrupted: \(fault(failure))"
        case .commitFinished(let id, let keptBeside):
            "shot \(id) was finished when a stop (a crash or a power cut) came, before it became the current shot: "
                + (keptBeside ? "it is kept beside the current shot" : "it is the current shot now")
        case .shotSetAside(let id, let why, let waiting):
            "shot \(id) was finished when a stop (a crash or a power cut) came, and cannot be made current now; it is kept in \(waiting) and recovered at the next start once this is fixed: \(unfinished(why, fault: fault))"
        case .shotLeftInPlace(let id, let why, let moving, let folder):
            "shot \(id) was finished when a stop (a crash or a power cut) came, and can be neither made current nor moved aside (\(fault(moving))); it stays in \(folder), and the next start tries again once this is fixed: \(unfinished(why, fault: fault))"
        case .emptyRecordingRemoved:
            "an interrupted recording with no whole fragment on the disk (cut off in its first second) was removed"
        case .recordingNotCutBack(let code):
            "could not cut the interrupted recording back to its last whole fragment (\(errno(code))); its last picture may be damaged"
        case .shortRecordingRemoved(let seconds, let minimum):
            String(cFormat: "an interrupted recording of %.1f s (under %.0f s) was removed", seconds, minimum)
        case .recovered(let id, let seconds, let frames, let effectDropped, let placed):
            String(cFormat: "recovered an interrupted recording (%.1f s, %ld frames)", seconds, frames)
                + (effectDropped ? " as its take: the effect being made from it was dropped" : "")
                + placement(placed, id: id)
        case .recoveryWaiting(let id, let failure, let waiting):
            "an interrupted recording (\(id)) could not be recovered now; it is kept in \(waiting) and recovered at the next start once this is fixed: \(fault(failure))"
        case .recoveryLeftInPlace(let id, let failure, let moving, let folder):
            "an interrupted recording (\(id)) could not be recovered now, nor moved aside (\(fault(moving))); it stays in \(folder), and the next start tries again once this is fixed: \(fault(failure))"
        case .recoveryRemoved(let id, let failure):
            "an interrupted recording (\(id)) could not be recovered and was removed: \(fault(failure))"
        case .written(let text):
            text
        }
    }

    private static func placement(_ placed: ShotNote.Placement, id: String) -> String {
        switch placed {
        case .current: " as the current shot"
        case .besideNewer: "; the current shot is newer, so it is kept beside it as \(id)"
        case .besideWhileRecording: "; it is kept beside the current shot as \(id) while this shot is recorded"
        }
    }

    private static func unfinished(_ why: ShotNote.Unfinished, fault: (ShotFault) -> String) -> String {
        switch why {
        case .shotFileUnreadable(let path): "\(path) is missing or cannot be read"
        case .shotFileDamaged(let path): "\(path) is damaged"
        case .failed(let failure): fault(failure)
        }
    }

    /// A failure a shot recorded, as the operator's words word that error anywhere.
    package static func fault(_ fault: ShotFault) -> String {
        switch fault {
        case .media(let error): mediaFault(error)
        case .storage(let error): store(error)
        case .microphone(let error): error.description
        case .system(let call, let code): "\(call) failed: \(errno(code))"
        case .other(let kind, let failure): "\(failure) (\(kind))"
        }
    }

    /// The encoder's failure inside a note or a shot's line: what happened only (the shot was
    /// kept, so none of `media`'s "the previous shot was kept").
    private static func mediaFault(_ error: MediaError) -> String {
        let what = mediaWhat(error)
        return what.hasSuffix(".") ? String(what.dropLast()) : what
    }

    /// Why the effect was not made, when it was not: the operator page's line says what was made
    /// from the data; this is the failure's part, which the page cannot word.
    package static func effectFault(_ effect: ShotEffect?) -> String? {
        switch effect?.notRendered {
        case .failure(let failure)?: fault(failure)
        case .failed(let operation, let detail)?: "\(operation): \(detail)"
        case .cameraTooSlow?, nil: nil
        }
    }

    /// Why the sound was left as recorded, when levelling it failed (as `effectFault`).
    package static func loudnessFault(_ loudness: ShotAudio.Loudness?) -> String? {
        switch loudness?.left {
        case .failure(let failure)?: fault(failure)
        case .failed(let operation, let detail)?: "\(operation): \(detail)"
        case .silent?, .nothingToMeasure?, nil: nil
        }
    }
}

extension OperatorWords {
    /// Why the sound stopped before the picture, after "the sound stopped early: ".
    package static func audioStop(_ stop: AudioStop) -> String {
        switch stop {
        case .disconnected: "the microphone was disconnected (ENODEV)"
        case .failed(let operation, let errno): "\(operation) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        case .written(let text): text
        }
    }
}
