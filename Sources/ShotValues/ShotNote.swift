package import MediaValues

/// What a shot tells beside its record, as a case with its data: how the capture differs from the
/// request, why it has no sound, what its take was like, what was recovered or repaired after a
/// stop (a crash or a power cut). Stored in `shot.json`'s `notes` (`--json` gives them as they
/// are: each an object named by its case, with its fields); worded at the edges (`CLIWords`,
/// `OperatorWords`), never below them.
package enum ShotNote: Sendable, Equatable {
    // The picture's source
    /// No camera was found: the built-in test pattern is recorded, with its test beep unless
    /// `audio.device` says otherwise.
    case noCamera
    /// The camera offers no `asked` size: `offered` is the closest.
    case closestSize(asked: FrameSize, offered: FrameSize)
    /// The camera offers no `asked` rate at `size`: `offered` is the closest.
    case closestRate(asked: FrameRate, offered: FrameRate, size: FrameSize)
    /// The driver adjusted the size it was given.
    case sizeAdjusted(width: Int, height: Int)
    /// The driver switched the pixel format it was given to `format`.
    case formatSwitched(format: String)
    /// `format` is converted by libv4l in software, which costs CPU.
    case convertedInSoftware(format: String)

    // The sound
    /// No sound: a file has no microphone.
    case noSoundFromFile
    /// No sound: `camera` has no microphone of its own.
    case noMicrophone(camera: String)
    /// No sound: the camera's microphone was found but could not be opened.
    case microphoneUnopenable(fault: ShotFault)
    /// The sound stopped before the picture (`stop`: why).
    case soundStoppedEarly(stop: AudioStop)
    /// The silent-take guard heard nothing louder than `silentBelowDBFS` (loudest `loudestDBFS`).
    case silentTake(loudestDBFS: Double, silentBelowDBFS: Double)
    /// The sound was at full scale in `clippedPercent`% of the take.
    case clippedTake(clippedPercent: Double)

    // The recording
    /// The camera handed over `count` frames a second time; each was recorded once.
    case framesRepeated(count: Int)
    /// The disk filled up: `keptSeconds` of the `askedSeconds` kept as recorded (not remuxed), and
    /// `droppedBytes` of a half-written fragment dropped.
    case diskFilled(keptSeconds: Double, askedSeconds: Double, droppedBytes: Int64)
    /// The faststart remux failed: the crash-safe fragmented recording is the shot.
    case remuxFailed(fault: ShotFault)
    /// Leftovers of an interrupted shot were removed at the start of this one.
    case leftoversRemoved(path: String)

    // After a stop (a crash or a power cut)
    /// The deletion of shot `id` a stop interrupted was finished.
    case deletionFinished(id: String)
    /// The deletion of shot `id` a stop interrupted could not be finished.
    case deletionUnfinished(id: String, fault: ShotFault)
    /// Shot `id` was finished when a stop came, before it became the current shot: it is kept
    /// beside the current shot (`keptBeside`), or it is the current shot now.
    case commitFinished(id: String, keptBeside: Bool)
    /// Shot `id`, finished when a stop came, cannot be made current now (`why`): it waits in
    /// `waiting` and is recovered at the next start.
    case shotSetAside(id: String, why: Unfinished, waiting: String)
    /// Shot `id`, finished when a stop came, can be neither made current (`why`) nor moved aside
    /// (`moving`): it stays in `folder`.
    case shotLeftInPlace(id: String, why: Unfinished, moving: ShotFault, folder: String)
    /// An interrupted recording with no whole fragment on the disk (cut off in its first second)
    /// was removed.
    case emptyRecordingRemoved
    /// An interrupted recording could not be cut back to its last whole fragment (`errno`): its
    /// last picture may be damaged.
    case recordingNotCutBack(errno: Int32)
    /// An interrupted recording of `seconds` (under `minimumSeconds`) was removed.
    case shortRecordingRemoved(seconds: Double, minimumSeconds: Double)
    /// An interrupted recording was recovered (`seconds`, `frames`), as its take when the effect
    /// being made from it was dropped (`effectDropped`), and `placed` as `id`.
    case recovered(id: String, seconds: Double, frames: Int, effectDropped: Bool, placed: Placement)
    /// An interrupted recording (`id`) could not be recovered now (`fault`): it waits in `waiting`.
    case recoveryWaiting(id: String, fault: ShotFault, waiting: String)
    /// ... nor moved aside (`moving`): it stays in `folder`.
    case recoveryLeftInPlace(id: String, fault: ShotFault, moving: ShotFault, folder: String)
    /// An interrupted recording (`id`) is no video (`fault`): it was removed.
    case recoveryRemoved(id: String, fault: ShotFault)

    /// A note from before notes were data (an older `shot.json`), as it was written.
    case written(String)

    /// Where a recovered recording went.
    package enum Placement: String, Sendable, Codable, Hashable, CaseIterable {
        /// It became the current shot.
        case current
        /// The current shot is newer: it is kept beside it.
        case besideNewer
        /// A shot is being recorded: it is kept beside the current shot meanwhile.
        case besideWhileRecording
    }

    /// Why a finished shot could not be made current.
    package enum Unfinished: Sendable, Equatable {
        /// Its `shot.json` is missing or cannot be read.
        case shotFileUnreadable(path: String)
        /// Its `shot.json` is damaged.
        case shotFileDamaged(path: String)
        /// Linking or keeping it failed.
        case failed(fault: ShotFault)
    }
}

/// `shot.json`'s `notes`: each note as its case and data, and a note an older version wrote as a
/// sentence read back as `.written`, so an old or salvaged shot still loads and shows its notes as
/// they were. `.written` is written back as the sentence it was.
@propertyWrapper
package struct ShotNotes: Sendable, Codable, Equatable {
    package var wrappedValue: [ShotNote]

    package init(wrappedValue: [ShotNote]) { self.wrappedValue = wrappedValue }

    private struct Entry: Decodable {
        var note: ShotNote
        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                note = .written(text)
            } else {
                note = try ShotNote(from: decoder)
            }
        }
    }

    package init(from decoder: any Decoder) throws {
        wrappedValue = try [Entry](from: decoder).map(\.note)
    }

    package func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for note in wrappedValue {
            if case .written(let text) = note { try list.encode(text) } else { try list.encode(note) }
        }
    }
}
