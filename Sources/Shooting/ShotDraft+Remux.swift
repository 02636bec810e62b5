import Glibc
import MediaEncoder
import Settings
import SystemSupport
import MediaValues
import Failures
import ShotValues
import DurableFiles

extension ShotDraft {
    /// Turns the crash-safe recording into `video.mp4` with its index first (faststart), and
    /// removes the recording only once that copy is on the disk. Returns nil when it did; when the
    /// remux or its sync fails, the recording itself becomes `video.mp4` (it plays as it is) and
    /// the reason is returned. Throws only when even that rename fails.
    ///
    /// The order is the point: the recording's fragments are on the disk as they are written, the
    /// copy is not until it is synced. Removed first, a power cut before the copy's sync lost both
    /// (ext4 committed the removal with the next fsync of any file, the copy's data still in memory:
    /// an empty video.mp4 and no recording; Tests/vm/power-cut.sh).
    func remuxRecording(endSeconds: Double? = nil) throws(RecorderError) -> ShotFault? {
        var failure: ShotFault?
        do throws(MediaError) {
            try MP4Remuxer.faststart(from: recordingPath, to: videoPath, endSeconds: endSeconds)
        } catch {
            failure = .media(error: error)
        }
        if failure == nil {
            do throws(RecorderError) { try DurableFile.fsyncFile(videoPath) } catch { failure = ShotFault(error) }
        }
        if failure == nil {
            // The copy is on the disk (synced above, before this: the order a power cut needs). A
            // recording that cannot be removed only takes room in the shot's folder until it goes.
            try? Posix.unlink(recordingPath)
            return nil
        }
        // Any failure, a full disk included: the half-written copy goes (freeing its room) and the
        // complete fragmented recording, which needs no more room, is kept (the rename replaces a
        // copy that could not be removed).
        try? Posix.unlink(videoPath)
        try DurableFile.rename(recordingPath, to: videoPath)
        return failure
    }
}
