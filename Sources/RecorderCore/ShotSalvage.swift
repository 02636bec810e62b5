import FoundationEssentials
import Glibc
import MediaEncoder
import StorageUpload
import SystemSupport

/// Turns a recording that was interrupted (kill -9, a crash, a power cut) back into a shot.
///
/// While recording, a shot writes a fragmented MP4 (`recording.mp4`, a fragment per keyframe,
/// flushed), which stays playable up to its last fragment however the process ends. At the next
/// start, before leftovers are cleaned, the newest such recording with at least one second of
/// frames is remuxed and becomes the current shot, marked as recovered, unless the current shot is
/// newer than it: then it is kept beside the current shot until it is posted (`recorder post --shot ID`).
public enum ShotSalvage {
    public static let minimumSeconds = 1.0

    /// Recovers what can be recovered; call with the workspace lock held, before `cleanStale`.
    /// Returns the recovered shot, if any, and what happened, for the user.
    public static func recover(_ workspace: ShotWorkspace) -> (shot: Shot?, notes: [String]) {
        let drafts = ((try? FileManager.default.contentsOfDirectory(atPath: workspace.root)) ?? [])
            .filter { $0.hasPrefix(".incoming-") }.sorted(by: >)
        guard let newest = drafts.first(where: {
            FileManager.default.fileExists(atPath: "\(workspace.root)/\($0)/\(ShotDraft.recordingName)")
        }) else { return (nil, []) }
        let id = String(newest.dropFirst(".incoming-".count))
        let draft = ShotDraft(id: id, directory: "\(workspace.root)/\(newest)")
        let olderThanCurrent = workspace.currentShotID().map { $0 > id } ?? false
        do {
            // A power cut can leave the last fragment half written: cut back to the last whole one,
            // so no picture in the recovered shot is missing its end.
            var notes: [String] = []
            if let whole = completeLength(of: draft.recordingPath), let size = LocalFiles.size(of: draft.recordingPath), whole < size,
               truncate(draft.recordingPath, off_t(whole)) != 0 {
                // Still recoverable: the remux stops at the damaged picture instead.
                notes.append("could not cut the interrupted recording back to its last whole fragment (\(String(cString: strerror(errno)))); its last picture may be damaged")
            }
            try FFmpegLibraries.load()
            let info = try MediaProbe.inspect(draft.recordingPath)
            guard info.durationSeconds >= minimumSeconds else {
                return (nil, [String(cFormat: "an interrupted recording of %.1f s (under %.0f s) was removed", info.durationSeconds, minimumSeconds)])
            }
            unlink(draft.videoPath)
            do {
                try MP4Remuxer.faststart(from: draft.recordingPath, to: draft.videoPath)
                unlink(draft.recordingPath)
            } catch {
                // The fragmented file plays as it is.
                unlink(draft.videoPath)
                try DurableFile.rename(draft.recordingPath, to: draft.videoPath)
            }
            let final = try MediaProbe.inspect(draft.videoPath)
            let seconds = Double(id.prefix(10)).map { Date(timeIntervalSince1970: $0) } ?? Date()
            let recovered = String(cFormat: "recovered an interrupted recording (%.1f s, %ld frames)", final.durationSeconds, final.frameCount)
            let message = olderThanCurrent
                ? "\(recovered); the current shot is newer, so it is kept beside it as \(id): post it with `recorder post --shot \(id)`"
                : "\(recovered) as the current shot"
            let shot = Shot(
                id: id, videoPath: draft.videoPath, createdAt: seconds, source: "recovered after an interruption",
                inputFormat: "unknown", width: final.width, height: final.height, frameRate: final.frameRate,
                frames: final.frameCount, framesDropped: 0, durationSeconds: final.durationSeconds,
                byteSize: LocalFiles.size(of: draft.videoPath) ?? 0, codec: final.codec, encoder: "libx264",
                endedEarly: "interrupted (kill, crash or power cut); recovered at the next start",
                notes: [message], recovered: true)
            if olderThanCurrent {
                _ = try workspace.keep(draft, shot: shot)
                return (nil, notes + [message])
            }
            return (try workspace.commit(draft, shot: shot), notes + [message])
        } catch {
            return (nil, ["an interrupted recording (\(id)) could not be recovered (\(error)); it was removed"])
        }
    }
}

extension ShotSalvage {
    /// The length of a fragmented MP4 up to the end of its last whole fragment (a `moof` followed
    /// by its complete `mdat`), from the top-level boxes; nil when the file cannot be read or has
    /// no whole fragment.
    static func completeLength(of path: String) -> Int64? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = UInt64(info.st_size)
        var offset: UInt64 = 0
        var lastWhole: UInt64?
        var sawMoof = false
        var bytes = [UInt8](repeating: 0, count: 16)
        while offset + 8 <= size {
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, off_t(offset)) }
            guard count >= 8 else { break }
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
    public func recoverInterrupted() -> (shot: Shot?, notes: [String]) {
        guard (try? prepare()) != nil, let lock = try? lock() else { return (nil, []) }
        let result = ShotSalvage.recover(self)
        _ = consume lock
        return result
    }
}
