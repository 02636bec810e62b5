import FoundationEssentials
import Glibc
import MediaEncoder
import Settings
import SystemSupport
import MediaValues
import Failures
import DurableFiles
import ShotValues

/// A take made into its finished shot in its draft folder: its sound levelled, its effect
/// rendered, each step crash-safe. A step writes a new file under a `.partial.mp4` name beside
/// `video.mp4`, syncs it, and only then renames it into place, so `video.mp4` is whole whatever
/// moment a kill or a power cut comes (`ShotSalvage` removes what a step left half made):
/// - levelling: the levelled copy replaces `video.mp4` (the same pictures, other sound);
/// - an effect: the take gets a second name, `take.mp4` (a hard link: one atomic call), then the
///   effect replaces `video.mp4`. A stop between the two leaves both names on the take; a stop
///   after leaves the effect with its take beside it. Either way salvage puts the take back as
///   `video.mp4` and the shot is posted as its take: never a half file.
extension ShotDraft {
    /// The take an effect was made from, beside it.
    package static let takeName = "take.mp4"
    /// What a step writes before it is whole.
    static let partialSuffix = ".partial.mp4"

    var takePath: String { "\(directory)/\(Self.takeName)" }
    private func partial(_ name: String) -> String { "\(directory)/\(name)\(Self.partialSuffix)" }

    /// Brings `video.mp4`'s sound to `target` LUFS in place; nil when it has nothing to measure.
    func levelSound(to target: Double) throws(RecorderError) -> SoundLeveller.Outcome? {
        let levelled = partial("level")
        defer { try? Posix.unlink(levelled) }
        let outcome: SoundLeveller.Outcome?
        do throws(MediaError) { outcome = try SoundLeveller.level(take: videoPath, to: levelled, target: target) } catch { throw .media(error) }
        guard let outcome else { return nil }
        try DurableFile.fsyncFile(levelled)
        try DurableFile.rename(levelled, to: videoPath)
        return outcome
    }

    /// Makes `video.mp4` into `effect` with `make` (which writes the file it is given), keeping
    /// the take beside it as `take.mp4`; returns what `make` returned. On a failure `video.mp4` is
    /// the take, and nothing else is left.
    func render<T>(_ effect: ClipEffect, _ make: (_ take: String, _ output: String) throws(MediaError) -> T) throws(RecorderError) -> T {
        let output = partial(effect.rawValue)
        defer { try? Posix.unlink(output) }
        let made: T
        do throws(MediaError) { made = try make(videoPath, output) } catch { throw .media(error) }
        try DurableFile.fsyncFile(output)
        // (a take.mp4 an earlier attempt left; one that cannot go makes the link below fail, said)
        try? Posix.unlink(takePath)
        try DurableFile.run("link", takePath) { () throws(Descriptors.Errno) in try Posix.link(videoPath, to: takePath) }
        do throws(RecorderError) {
            try DurableFile.rename(output, to: videoPath)
        } catch {
            // (the take keeps its first name; a second left here is removed by salvage's restoreTake)
            try? Posix.unlink(takePath)
            throw error
        }
        return made
    }

    /// What a stop in the middle of `levelSound` or `render` left, put right: the take is
    /// `video.mp4` again (an effect made from it is dropped) and half-made files are removed.
    /// Returns whether an effect was dropped.
    @discardableResult
    func restoreTake() -> Bool {
        var dropped = false
        if Posix.allows(takePath, F_OK) {
            let take = FileSystem.status(of: takePath), video = FileSystem.status(of: videoPath)
            if take != nil, take?.inode == video?.inode {
                // (both names on the take: the effect never replaced it)
                try? Posix.unlink(takePath)
            } else if (try? DurableFile.rename(takePath, to: videoPath)) != nil {
                dropped = true
            }
        }
        for name in DirectoryListing.namesIfReadable(directory) where name.hasSuffix(Self.partialSuffix) {
            // (best effort: one that stays is only a name a later shot never reads)
            try? Posix.unlink("\(directory)/\(name)")
        }
        return dropped
    }
}
