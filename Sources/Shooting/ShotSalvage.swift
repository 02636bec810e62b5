import FoundationEssentials
import Glibc
import MediaEncoder
import StorageUpload
internal import SystemSupport
import Settings
import Failures
package import ShotValues

/// Turns a recording that was interrupted (kill -9, a crash, a power cut) back into a shot.
///
/// While recording, a shot writes a fragmented MP4 (`recording.mp4`, a fragment per keyframe,
/// flushed), which stays playable up to its last fragment however the process ends. At the next
/// start, before leftovers are cleaned, the newest such recording with at least one second of
/// frames is remuxed and becomes the current shot, marked as recovered, unless the current shot is
/// newer than it: then it is kept beside the current shot until it is posted (`recorder post --shot ID`).
/// A recording that cannot be recovered for a reason that may pass (a full disk, FFmpeg missing)
/// is not removed: it waits as `.interrupted-<id>` and is tried again at the next start.
package enum ShotSalvage {
    package static let minimumSeconds = 1.0
    /// The folder prefix of a recording waiting to be recovered; `cleanStale` leaves it alone.
    static let waitingPrefix = ".interrupted-"
    /// In a `.incoming-` folder salvage could not rename: cleaning leaves that folder alone.
    static let unmovableMarker = "unmovable"

    /// What one start recovered.
    package struct Outcome: Sendable {
        /// The recovered shot that became current, if one did.
        package var shot: Shot?
        /// Ids of recovered recordings kept beside the current shot.
        package var kept: [String] = []
        /// What happened, for the user (each edge words it).
        package var notes: [ShotNote] = []
    }

    /// Recovers what can be recovered, newest first (so the newest may become current and any
    /// older one is kept beside it); call with the workspace lock held, before `cleanStale`.
    /// `besideCurrent`: keep every recovered recording beside the current shot (in `kept/`), as
    /// `recorder shoot` does so the shot it was asked for is still recorded.
    package static func recover(_ workspace: ShotWorkspace, besideCurrent: Bool = false) -> Outcome {
        let drafts = FileSystem.names(in: workspace.root).compactMap { name -> ShotDraft? in
            guard let prefix = [".incoming-", waitingPrefix].first(where: { name.hasPrefix($0) }) else { return nil }
            let draft = ShotDraft(id: String(name.dropFirst(prefix.count)), directory: "\(workspace.root)/\(name)")
            // After a failed attempt the recording may already be remuxed into video.mp4.
            let hasVideo = Posix.allows(draft.recordingPath, F_OK) || Posix.allows(draft.videoPath, F_OK)
            return hasVideo ? draft : nil
        }
        var outcome = Outcome()
        // First a commit or a deletion a stop cut short, so the drafts are weighed against the
        // current shot as it was meant to be.
        let completed = workspace.completeInterrupted(besideCurrent: besideCurrent)
        outcome.notes += completed.notes
        if let kept = completed.kept { outcome.kept.append(kept) }
        for draft in drafts.sorted(by: { $0.id > $1.id }) {
            recover(draft, in: workspace, besideCurrent: besideCurrent, into: &outcome)
        }
        return outcome
    }

    private static func recover(_ draft: ShotDraft, in workspace: ShotWorkspace, besideCurrent: Bool, into outcome: inout Outcome) {
        let id = draft.id
        let olderThanCurrent = workspace.currentShotID().map { $0 > id } ?? false
        let keepBeside = olderThanCurrent || besideCurrent
        // A stop while its sound was levelled or its effect made: the take is the shot again
        // (posted as recorded), and what was half made goes.
        let effectDropped = draft.restoreTake()
        do {
            try FFmpegLibraries.load()
            if Posix.allows(draft.recordingPath, F_OK) {
                let whole = completeLength(of: draft.recordingPath)
                // A power cut in a recording's first second leaves its header at most: no picture
                // reached the disk, so there is nothing to recover, and nothing to wait for either.
                if whole == nil, isHeaderOnly(draft.recordingPath) {
                    FileSystem.removeTreeIfThere(draft.directory)
                    outcome.notes.append(.emptyRecordingRemoved)
                    return
                }
                // A power cut can leave the last fragment half written: cut back to the last whole
                // one, so no picture in the recovered shot is missing its end.
                if let whole, let size = FileSystem.size(of: draft.recordingPath), whole < size {
                    do throws(Descriptors.Errno) { try Posix.truncate(draft.recordingPath, to: whole) } catch {
                        // Still recoverable: the remux stops at the damaged picture instead.
                        outcome.notes.append(.recordingNotCutBack(errno: error.code))
                    }
                }
                let info = try MediaProbe.inspect(draft.recordingPath)
                guard info.durationSeconds >= minimumSeconds else {
                    FileSystem.removeTreeIfThere(draft.directory)
                    outcome.notes.append(.shortRecordingRemoved(seconds: info.durationSeconds, minimumSeconds: minimumSeconds))
                    return
                }
                // A copy an earlier attempt left half made: the remux writes it anew, and a failed
                // remux renames the recording over it, so one that cannot be removed does no harm.
                try? Posix.unlink(draft.videoPath)
                // (a failed remux keeps the fragmented file, which plays as it is)
                _ = try draft.remuxRecording()
            }
            let final = try MediaProbe.inspect(draft.videoPath)
            // (a name not made by newID: when its video was last written)
            let seconds = Double(id.prefix(10)) ?? FileSystem.status(of: draft.videoPath)?.modified ?? 0
            let made = Date(timeIntervalSince1970: seconds)
            let placed: ShotNote.Placement = olderThanCurrent ? .besideNewer : besideCurrent ? .besideWhileRecording : .current
            let message = ShotNote.recovered(id: id, seconds: final.durationSeconds, frames: final.frameCount,
                                             effectDropped: effectDropped, placed: placed)
            let shot = Shot(
                id: id, videoPath: draft.videoPath, createdAt: made, source: "recovered after an interruption",
                inputFormat: "unknown", width: final.width, height: final.height, frameRate: final.frameRate,
                frames: final.frameCount, framesDropped: 0, durationSeconds: final.durationSeconds,
                byteSize: FileSystem.size(of: draft.videoPath) ?? 0, codec: final.codec, encoder: "libx264",
                endedEarly: .interrupted,
                notes: [message], recovered: true, consent: ConsentText.record(in: draft.directory))
            if keepBeside {
                _ = try workspace.keep(draft, shot: shot)
                outcome.kept.append(id)
            } else {
                outcome.shot = try workspace.commit(draft, shot: shot)
            }
            outcome.notes.append(message)
        } catch {
            outcome.notes.append(unrecovered(draft, in: workspace, RecorderError.wrap(error)))
        }
    }

    /// A recording that is not a video is removed; for any other failure (a full disk, FFmpeg
    /// missing) it waits, under a name cleaning leaves alone, for the next start.
    private static func unrecovered(_ draft: ShotDraft, in workspace: ShotWorkspace, _ error: RecorderError) -> ShotNote {
        let waiting = "\(workspace.root)/\(waitingPrefix)\(draft.id)"
        if error.kind != .badData {
            let moved: Descriptors.Errno?
            do throws(Descriptors.Errno) {
                if draft.directory != waiting { try Posix.rename(draft.directory, to: waiting) }
                moved = nil
            } catch {
                moved = error
            }
            guard let failure = moved else {
                return .recoveryWaiting(id: draft.id, fault: ShotFault(error), waiting: waiting)
            }
            // Not even moved aside: it stays where it is, marked so cleaning leaves it, never deleted.
            try? FileSystem.writeSynced([], to: "\(draft.directory)/\(unmovableMarker)")
            return .recoveryLeftInPlace(id: draft.id, fault: ShotFault(error), moving: .system(call: "rename", errno: failure.code),
                                        folder: draft.directory)
        }
        FileSystem.removeTreeIfThere(draft.directory)
        return .recoveryRemoved(id: draft.id, fault: ShotFault(error))
    }
}

extension ShotSalvage {
    /// Whether the recording at `path` is empty or an MP4 header without any fragment: what a power
    /// cut in a recording's first second leaves. Anything else (a file that is not an MP4, one that
    /// cannot be read) is not, and goes the usual way.
    static func isHeaderOnly(_ path: String) -> Bool {
        guard let fd = try? Posix.open(path, O_RDONLY | O_CLOEXEC) else { return false }
        defer { Posix.closeAfterUse(fd) }
        guard let head = try? Posix.read(fd, count: 8, at: 0) else { return false }
        if head.isEmpty { return true }
        return head.count == 8 && String(decoding: head[4..<8], as: UTF8.self) == "ftyp" && completeLength(of: path) == nil
    }

    /// The length of a fragmented MP4 up to the end of its last whole fragment (a `moof` followed
    /// by its complete `mdat`), from the top-level boxes; nil when the file cannot be read or has
    /// no whole fragment.
    static func completeLength(of path: String) -> Int64? {
        guard let fd = try? Posix.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { Posix.closeAfterUse(fd) }
        guard let status = try? Posix.status(of: fd) else { return nil }
        let size = UInt64(status.size)
        var offset: UInt64 = 0
        var lastWhole: UInt64?
        var sawMoof = false
        while offset + 8 <= size {
            // (a read that fails ends the walk where a short one does: nothing past here is whole)
            guard let bytes = try? Posix.read(fd, count: 16, at: Int64(offset)), bytes.count >= 8 else { break }
            let count = bytes.count
            var boxSize = UInt64(bytes[0]) << 24 | UInt64(bytes[1]) << 16 | UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if boxSize == 1 {
                guard count >= 16 else { break }
                boxSize = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
            } else if boxSize == 0 {
                boxSize = size - offset
            }
            guard boxSize >= 8, offset + boxSize <= size else { break }  // cut off here
            if type == "moof" { sawMoof = true }
            if type == "mdat" && sawMoof {
                lastWhole = offset + boxSize
                sawMoof = false
            }
            offset += boxSize
        }
        return lastWhole.map { Int64($0) }
    }
}

extension ShotWorkspace {
    /// `ShotSalvage.recover` under the workspace lock. Does nothing while another process holds the
    /// lock: its `.incoming-` folder is a recording in progress, not an interrupted one.
    package func recoverInterrupted(besideCurrent: Bool = false) -> ShotSalvage.Outcome {
        guard (try? prepare()) != nil, let lock = try? lock() else { return ShotSalvage.Outcome() }
        let result = ShotSalvage.recover(self, besideCurrent: besideCurrent)
        _ = consume lock
        return result
    }
}
