import ShotValues
import MediaValues
import StoreValues
import SystemSupport

/// One of every shot note (`ShotNote`) and of every kind of failure a shot records (`ShotFault`),
/// named: what the edges' note tables (snapshots) and the round trip through shot.json walk.
enum ShotNoteSamples {
    static let faults: [(String, ShotFault)] = [
        ("media", .media(error: FailureSamples.media)),
        ("storage", .storage(error: FailureSamples.store)),
        ("microphone", .microphone(error: AudioError(.busy(holders: "pipewire"), device: "hw:CARD=C920,DEV=0", operation: "snd_pcm_open", errno: 16))),
        ("system", .system(call: "rename", errno: 18)),
        ("other", .other(kind: "invalidRequest", failure: "ShotFailure.notCurrentShot")),
    ]

    static let remuxFault = ShotFault.media(error: MediaError(.failed, .call(function: "av_interleaved_write_frame", message: "Invalid argument"),
                                                              code: -22, path: "/var/lib/recorder/shots/.incoming-1/video.mp4"))
    static let id = "1764400000-3f2a"
    static let waiting = "/var/lib/recorder/shots/.interrupted-1764400000-3f2a"
    static let folder = "/var/lib/recorder/shots/shots/1764400000-3f2a"

    static let all: [(String, ShotNote)] = {
        var notes: [(String, ShotNote)] = [
            ("noCamera", .noCamera),
            ("closestSize", .closestSize(asked: FrameSize(width: 1920, height: 1080), offered: FrameSize(width: 1280, height: 720))),
            ("closestRate", .closestRate(asked: FrameRate(60), offered: FrameRate(30000, 1001), size: FrameSize(width: 1280, height: 720))),
            ("sizeAdjusted", .sizeAdjusted(width: 1280, height: 720)),
            ("formatSwitched", .formatSwitched(format: "MJPG")),
            ("convertedInSoftware", .convertedInSoftware(format: "RGB3")),
            ("noSoundFromFile", .noSoundFromFile),
            ("noMicrophone", .noMicrophone(camera: "/dev/video0")),
            ("soundStoppedEarly", .soundStoppedEarly(stop: .disconnected)),
            ("soundStoppedEarly, a call failed", .soundStoppedEarly(stop: .failed(operation: "snd_pcm_readi", errno: 5))),
            ("soundStoppedEarly, an older sentence", .soundStoppedEarly(stop: .written("the microphone was disconnected (ENODEV)"))),
            ("silentTake", .silentTake(loudestDBFS: -61.3, silentBelowDBFS: -45)),
            ("clippedTake", .clippedTake(clippedPercent: 72.5)),
            ("framesRepeated", .framesRepeated(count: 3)),
            ("diskFilled", .diskFilled(keptSeconds: 4.23, askedSeconds: 10, droppedBytes: 1_572_864)),
            ("remuxFailed", .remuxFailed(fault: remuxFault)),
            ("leftoversRemoved", .leftoversRemoved(path: "/var/lib/recorder/shots/.incoming-1764399000-aa01")),
            ("deletionFinished", .deletionFinished(id: id)),
            ("commitFinished.current", .commitFinished(id: id, keptBeside: false)),
            ("commitFinished.keptBeside", .commitFinished(id: id, keptBeside: true)),
            ("shotSetAside.shotFileUnreadable", .shotSetAside(id: id, why: .shotFileUnreadable(path: folder + "/shot.json"), waiting: waiting)),
            ("shotSetAside.shotFileDamaged", .shotSetAside(id: id, why: .shotFileDamaged(path: folder + "/shot.json"), waiting: waiting)),
            ("shotSetAside.failed", .shotSetAside(id: id, why: .failed(fault: faults[1].1), waiting: waiting)),
            ("shotLeftInPlace", .shotLeftInPlace(id: id, why: .shotFileDamaged(path: folder + "/shot.json"), moving: faults[3].1, folder: folder)),
            ("emptyRecordingRemoved", .emptyRecordingRemoved),
            ("recordingNotCutBack", .recordingNotCutBack(errno: 5)),
            ("shortRecordingRemoved", .shortRecordingRemoved(seconds: 0.4, minimumSeconds: 1)),
            ("recovered.current", .recovered(id: id, seconds: 7.96, frames: 239, effectDropped: false, placed: .current)),
            ("recovered.besideNewer", .recovered(id: id, seconds: 7.96, frames: 239, effectDropped: false, placed: .besideNewer)),
            ("recovered.besideWhileRecording.effectDropped", .recovered(id: id, seconds: 2, frames: 60, effectDropped: true, placed: .besideWhileRecording)),
            ("recoveryLeftInPlace", .recoveryLeftInPlace(id: id, fault: faults[1].1, moving: faults[3].1, folder: waiting)),
            ("recoveryRemoved", .recoveryRemoved(id: id, fault: .media(error: MediaError(.badInput, .noVideoStream, path: waiting + "/recording.mp4")))),
            ("written", .written("recovered an interrupted recording (3.0 s, 90 frames) as the current shot")),
        ]
        // Each kind of failure, where the words quote one.
        for (name, fault) in faults {
            notes.append(("microphoneUnopenable.\(name)", .microphoneUnopenable(fault: fault)))
            notes.append(("deletionUnfinished.\(name)", .deletionUnfinished(id: id, fault: fault)))
            notes.append(("recoveryWaiting.\(name)", .recoveryWaiting(id: id, fault: fault, waiting: waiting)))
        }
        return notes
    }()

    /// The case's name: the compiler finds a new case here, and `everyCaseHasASample` a case
    /// with no sample.
    static func caseName(_ note: ShotNote) -> String {
        switch note {
        case .noCamera: "noCamera"
        case .closestSize: "closestSize"
        case .closestRate: "closestRate"
        case .sizeAdjusted: "sizeAdjusted"
        case .formatSwitched: "formatSwitched"
        case .convertedInSoftware: "convertedInSoftware"
        case .noSoundFromFile: "noSoundFromFile"
        case .noMicrophone: "noMicrophone"
        case .microphoneUnopenable: "microphoneUnopenable"
        case .soundStoppedEarly: "soundStoppedEarly"
        case .silentTake: "silentTake"
        case .clippedTake: "clippedTake"
        case .framesRepeated: "framesRepeated"
        case .diskFilled: "diskFilled"
        case .remuxFailed: "remuxFailed"
        case .leftoversRemoved: "leftoversRemoved"
        case .deletionFinished: "deletionFinished"
        case .deletionUnfinished: "deletionUnfinished"
        case .commitFinished: "commitFinished"
        case .shotSetAside: "shotSetAside"
        case .shotLeftInPlace: "shotLeftInPlace"
        case .emptyRecordingRemoved: "emptyRecordingRemoved"
        case .recordingNotCutBack: "recordingNotCutBack"
        case .shortRecordingRemoved: "shortRecordingRemoved"
        case .recovered: "recovered"
        case .recoveryWaiting: "recoveryWaiting"
        case .recoveryLeftInPlace: "recoveryLeftInPlace"
        case .recoveryRemoved: "recoveryRemoved"
        case .written: "written"
        }
    }
    static let caseCount = 29

    /// The effect and levelling failures a shot records, old and new.
    static let effects: [(String, ShotEffect.NotRendered)] = [
        ("cameraTooSlow", .cameraTooSlow(fastest: 30)),
        ("failure", .failure(fault: .media(error: MediaError(.badInput, .boomerangTooShort(pictures: 2))))),
        ("failed", .failed(operation: "avcodec_send_frame", detail: "Invalid argument")),
    ]
    static let levellings: [(String, ShotAudio.Loudness.Left)] = [
        ("silent", .silent),
        ("nothingToMeasure", .nothingToMeasure),
        ("failure", .failure(fault: .media(error: MediaError(.failed, .levelledSoundSilent)))),
        ("failed", .failed(operation: "avfilter_graph_config", detail: "Invalid argument")),
    ]
}
