import FoundationEssentials
import Glibc
import StorageUpload
internal import SystemSupport
package import Settings
package import Failures
package import DurableFiles
import ShotValues

/// The directory that holds the latest good shot and the one being recorded.
///
/// Layout: `shots/<id>/video.mp4` + `shot.json` for finished shots, `current` a symlink to the
/// latest, `.incoming-<id>/` for a shot in progress, `kept/<id>/` for a recovered recording that
/// is older than the current shot, `.interrupted-<id>/` for one waiting to be recovered. A new shot replaces the previous one only once it is complete
/// (an atomic rename of the `current` link); a failed or killed shot leaves the previous one
/// untouched, and its leftovers are removed at the next start. A kept shot stays until posted.
package struct ShotWorkspace: Sendable {
    package let root: String

    package init(root: String) {
        self.root = root
    }

    /// The workspace when none is configured (`RecorderConfiguration.defaultWorkspace`).
    package static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        RecorderConfiguration.defaultWorkspace(environment: environment)
    }

    var shotsDirectory: String { root + "/shots" }
    var currentLink: String { root + "/current" }
    var keptDirectory: String { root + "/kept" }

    /// Creates the directories (private to this user) and checks they are writable.
    package func prepare() throws(RecorderError) {
        for dir in [root, shotsDirectory] {
            try DurableFile.makeDirectory(dir, operation: "create the shot workspace")
        }
        guard Posix.allows(root, W_OK | X_OK) else {
            throw .shot(.workspaceNotWritable(root: root))
        }
    }

    /// Takes the workspace for one shot; a second recorder process gets a clear error instead of a race.
    /// `patienceSeconds`: how long a busy lock is tried again before it is an error (a guest's
    /// post or delete at the kiosk waits a moment; a command line's shot is refused at once).
    package func lock(patienceSeconds: Double = 0) throws(RecorderError) -> FileLock {
        try FileLock(path: root + "/.lock", busy: .shot(.workspaceBusy(root: root)), patienceSeconds: patienceSeconds)
    }

    /// Removes what a crashed or failed shot left: `.incoming-*` folders and shots no link points to,
    /// and kept shots once they are posted. Call only while holding the lock. Returns the removed paths.
    @discardableResult
    package func cleanStale() -> [String] {
        var removed: [String] = []
        let keep = currentShotID()
        for name in FileSystem.names(in: root) where name.hasPrefix(".incoming-") {
            // A recording salvage could not even move aside is left for a person, never deleted.
            let dir = root + "/" + name
            if Posix.allows(dir + "/" + ShotDraft.recordingName, F_OK) && Posix.allows(dir + "/" + ShotSalvage.unmovableMarker, F_OK) { continue }
            removed.append(dir)
        }
        for name in FileSystem.names(in: shotsDirectory) where name != keep {
            // (a finished shot that could be neither linked nor moved aside waits for a person)
            if Posix.allows("\(shotsDirectory)/\(name)/\(ShotSalvage.unmovableMarker)", F_OK) { continue }
            removed.append(shotsDirectory + "/" + name)
        }
        // A commit's temporary link, left by a stop before its rename: only a name, said nowhere
        // (one that cannot be removed now is tried again at the next start).
        for name in FileSystem.names(in: root) where name.hasPrefix(".current-") {
            try? Posix.unlink("\(root)/\(name)")
        }
        for name in FileSystem.names(in: keptDirectory) where isPosted(kept: name) {
            removed.append(keptDirectory + "/" + name)
        }
        for path in removed { FileSystem.removeTreeIfThere(path) }
        return removed
    }

    /// A fresh, empty folder for the next shot.
    package func beginShot() throws(RecorderError) -> ShotDraft {
        let id = ShotDraft.newID()
        let dir = "\(root)/.incoming-\(id)"
        try DurableFile.run("create", dir) { () throws(Descriptors.Errno) in try Posix.mkdir(dir, mode: 0o700) }
        return ShotDraft(id: id, directory: dir)
    }

    /// Makes `draft` the current shot and deletes the previous one. Until the final rename the
    /// previous shot stays current, so a failure here loses nothing.
    package func commit(_ draft: ShotDraft, shot: Shot) throws(RecorderError) -> Shot {
        let finalDir = "\(shotsDirectory)/\(draft.id)"
        var shot = shot
        shot.videoPath = "\(finalDir)/\(ShotDraft.videoName)"
        try finish(draft, shot: shot, into: finalDir)
        let previous = currentShotID()
        // A power cut here leaves the shot in shots/ with no link to it: `completeInterrupted`
        // links it at the next start (cleaning would otherwise take it for a replaced shot).
        try makeCurrent(draft.id)
        if let previous, previous != draft.id { retire(previous) }
        return shot
    }

    /// Removes a replaced or deleted shot's folder, first taking it out of view (a dot-name, which
    /// `completeInterrupted` never takes for a finished shot and `cleanStale` removes): a stop in
    /// the middle of the removal then leaves nothing that looks like a shot to bring back.
    private func retire(_ id: String) {
        let folder = "\(shotsDirectory)/\(id)"
        let hidden = "\(shotsDirectory)/.gone-\(id)"
        // Best effort, all of it: what stays is removed at the next start (`cleanStale`).
        FileSystem.removeTreeIfThere(hidden)
        let outOfView = (try? Posix.rename(folder, to: hidden)) != nil
        FileSystem.removeTreeIfThere(outOfView ? hidden : folder)
    }

    /// Writes `shot.json` into `directory`, durably.
    private func writeShotFile(_ shot: Shot, in directory: String) throws(RecorderError) {
        let data: Data
        do { data = try shot.jsonData() } catch { throw RecorderError(InternalFailure.cannotEncode(document: .shot, failure: EncodingFailure(error))) }
        try DurableFile.write(data, to: "\(directory)/shot.json")
    }

    /// Points `current` at `shots/<id>`, atomically and durably.
    private func makeCurrent(_ id: String) throws(RecorderError) {
        let tempLink = "\(root)/.current-\(id)"
        // A leftover of a stop before its rename; if it cannot go, the symlink below says so.
        try? Posix.unlink(tempLink)
        try DurableFile.run("link", tempLink) { () throws(Descriptors.Errno) in try Posix.symlink("shots/\(id)", at: tempLink) }
        try DurableFile.rename(tempLink, to: currentLink)
    }

    /// In a shot's folder: the shot is being deleted. Written (durably) before the `current` link
    /// goes, so a folder a power cut left behind is known as deleted, never made current again.
    static let discardedMarker = ".discarded"

    /// Puts right what a power cut or crash left between the steps of a commit or a deletion; call
    /// with the lock held, before `cleanStale` (which would remove a shot no link points to).
    /// - A current shot marked as being deleted: the deletion is finished.
    /// - A whole shot in `shots/` newer than the current one (or with none), not being deleted:
    ///   its commit stopped before the link. It becomes current, or with `besideCurrent` (a shoot
    ///   that will replace the current shot) it is kept beside it, as a recovered recording is.
    /// Returns what it did, as notes, and the id of a shot it kept beside the current one.
    func completeInterrupted(besideCurrent: Bool) -> (notes: [ShotNote], kept: String?) {
        var notes: [ShotNote] = []
        if let id = currentShotID(), Posix.allows("\(shotsDirectory)/\(id)/\(Self.discardedMarker)", F_OK) {
            do throws(RecorderError) {
                try discardCurrent(id: id)
                notes.append(.deletionFinished(id: id))
            } catch {
                notes.append(.deletionUnfinished(id: id, fault: ShotFault(error)))
            }
        }
        let current = currentShotID()
        let names = FileSystem.names(in: shotsDirectory).filter { name in
            !name.hasPrefix(".") && name != current && name > (current ?? "")
                && !Posix.allows("\(shotsDirectory)/\(name)/\(Self.discardedMarker)", F_OK)
        }
        guard let id = names.max() else { return (notes, nil) }
        guard let shot = readShot("\(shotsDirectory)/\(id)") else {
            notes.append(setAside(id, because: unreadable(id)))
            return (notes, nil)
        }
        let folder = ShotDraft(id: id, directory: "\(shotsDirectory)/\(id)")
        do throws(RecorderError) {
            if besideCurrent {
                // As a recovered recording is kept (its shot.json then names kept/).
                _ = try keep(folder, shot: shot)
                notes.append(.commitFinished(id: id, keptBeside: true))
                return (notes, id)
            }
            // shot.json names the video here again if a cut came as an earlier start was keeping it.
            if shot.videoPath != folder.videoPath {
                var named = shot
                named.videoPath = folder.videoPath
                try writeShotFile(named, in: folder.directory)
            }
            try makeCurrent(id)
            // The shot it replaces goes, as in a commit.
            if let current { retire(current) }
            notes.append(.commitFinished(id: id, keptBeside: false))
        } catch {
            notes.append(setAside(id, because: .failed(fault: ShotFault(error))))
        }
        return (notes, nil)
    }

    /// A finished shot that could be neither linked nor kept: moved to `.interrupted-<id>`, where
    /// cleaning leaves it and the next start recovers its video as an interrupted recording; if
    /// even that fails, marked so cleaning leaves it where it is. Never deleted. What happened, as a note.
    private func setAside(_ id: String, because reason: ShotNote.Unfinished) -> ShotNote {
        let folder = "\(shotsDirectory)/\(id)"
        let waiting = "\(root)/\(ShotSalvage.waitingPrefix)\(id)"
        do throws(RecorderError) {
            try DurableFile.rename(folder, to: waiting)
            return .shotSetAside(id: id, why: reason, waiting: waiting)
        } catch {
            try? FileSystem.writeSynced([], to: "\(folder)/\(ShotSalvage.unmovableMarker)")
            return .shotLeftInPlace(id: id, why: reason, moving: ShotFault(error), folder: folder)
        }
    }

    /// Why finished shot `id`'s shot.json cannot be read.
    private func unreadable(_ id: String) -> ShotNote.Unfinished {
        let path = "\(shotsDirectory)/\(id)/shot.json"
        return FileSystem.dataIfReadable(path) == nil ? .shotFileUnreadable(path: path) : .shotFileDamaged(path: path)
    }

    /// Deletes the current shot when it is `id` (a guest's "Delete" at the booth): the `current`
    /// link goes first, so a failure halfway leaves no link to a half-deleted shot. A newer shot
    /// (another one started meanwhile) is never touched. Call only while holding the lock.
    package func discardCurrent(id: String) throws(RecorderError) {
        guard currentShotID() == id else {
            throw .shot(.notCurrentShot(id: id))
        }
        // Marked first: a folder a power cut leaves without its link is then known as deleted.
        let folder = "\(shotsDirectory)/\(id)"
        if Posix.allows(folder, F_OK) { try DurableFile.write(Data(), to: "\(folder)/\(Self.discardedMarker)") }
        try DurableFile.run("unlink", currentLink) { () throws(Descriptors.Errno) in try Posix.unlink(currentLink) }
        try DurableFile.syncDirectory(of: currentLink)
        // Shots it replaced whose removal a stop undid go too: with no current shot left to be
        // older than, they would look like a finished shot waiting for its link.
        for name in FileSystem.names(in: shotsDirectory) where !name.hasPrefix(".") && name < id {
            retire(name)
        }
        retire(id)
    }

    /// Deletes kept shot `id` (retention). Call only while holding the lock.
    package func removeKept(id: String) throws(RecorderError) {
        guard !id.isEmpty, !id.contains("/"), id != ".", id != ".." else { return }
        let directory = "\(keptDirectory)/\(id)"
        do throws(FileSystem.Failure) { try FileSystem.removeTree(directory) } catch {
            throw .shot(.cannotDeleteKept(directory: directory, detail: error.errno.description))
        }
    }

    /// Keeps `draft` as a finished shot beside the current one (which stays current): a recovered
    /// recording that is older than the current shot, kept until it is posted.
    package func keep(_ draft: ShotDraft, shot: Shot) throws(RecorderError) -> Shot {
        try DurableFile.makeDirectory(keptDirectory)
        let finalDir = "\(keptDirectory)/\(draft.id)"
        var shot = shot
        shot.videoPath = "\(finalDir)/\(ShotDraft.videoName)"
        try finish(draft, shot: shot, into: finalDir)
        return shot
    }

    /// Kept shots not posted yet, oldest first.
    package func keptShots() -> [Shot] {
        FileSystem.names(in: keptDirectory).sorted().compactMap { name in
            isPosted(kept: name) ? nil : readShot("\(keptDirectory)/\(name)")
        }
    }

    private func isPosted(kept name: String) -> Bool {
        Posix.allows("\(keptDirectory)/\(name)/\(PostedMarker.fileName)", F_OK)
    }

    /// The current shot or a kept one, by id.
    package func shot(id: String) -> Shot? {
        if id == currentShotID() { return currentShot() }
        guard !id.contains("/"), !id.hasPrefix(".") else { return nil }
        return readShot("\(keptDirectory)/\(id)")
    }

    private func readShot(_ directory: String) -> Shot? {
        try? loadShot(directory).get()
    }

    /// Why shot `id` (the current one, or a kept one) cannot be read: its shot.json is missing or
    /// damaged. nil when it reads, or when there is no such shot directory at all. So a damaged
    /// shot is said as such, never as "no shot".
    package func problem(readingShot id: String) -> ShotFileProblem? {
        guard !id.contains("/"), !id.hasPrefix(".") else { return nil }
        for directory in ["\(shotsDirectory)/\(id)", "\(keptDirectory)/\(id)"] where FileSystem.isThere(directory) {
            if case .failure(let failure) = loadShot(directory) { return failure.problem }
            return nil
        }
        return nil
    }

    private struct ShotFileFailure: Error {
        var problem: ShotFileProblem
    }

    private func loadShot(_ directory: String) -> Result<Shot, ShotFileFailure> {
        let path = "\(directory)/shot.json"
        guard let data = FileSystem.dataIfReadable(path) else {
            return .failure(ShotFileFailure(problem: .unreadable(path: path)))
        }
        do {
            return .success(try Shot.decoder.decode(Shot.self, from: data))
        } catch {
            return .failure(ShotFileFailure(problem: .damaged(path: path, parser: "\(error)")))
        }
    }

    /// Writes shot.json and moves the finished draft to its place.
    private func finish(_ draft: ShotDraft, shot: Shot, into finalDir: String) throws(RecorderError) {
        try writeShotFile(shot, in: draft.directory)
        try DurableFile.fsyncFile(draft.videoPath)
        try DurableFile.rename(draft.directory, to: finalDir)
    }

    /// The id of the shot `current` points to.
    package func currentShotID() -> String? {
        guard let target = try? Posix.linkTarget(currentLink) else { return nil }
        return FilePaths.name(of: target)
    }

    /// The latest finished shot, or nil when there is none.
    package func currentShot() -> Shot? {
        guard let id = currentShotID() else { return nil }
        return readShot("\(shotsDirectory)/\(id)")
    }

    /// Free bytes on the workspace's file system.
    package func freeBytes() -> Int64? { FileSystem.freeBytes(root) }
}

/// The folder a shot records into before it becomes current.
package struct ShotDraft: Sendable {
    package static let recordingName = "recording.mp4"
    package static let videoName = "video.mp4"

    package let id: String
    package let directory: String

    /// The fragmented, crash-safe file written while recording.
    package var recordingPath: String { "\(directory)/\(Self.recordingName)" }
    /// The faststart MP4 made from it on a clean stop.
    package var videoPath: String { "\(directory)/\(Self.videoName)" }

    /// Sortable by time, unique across processes.
    static func newID() -> String {
        let now = Posix.wallClock()
        return String(cFormat: "%010ld-%09ld-%d", now.seconds, now.nanoseconds, Posix.processID)
    }
}
