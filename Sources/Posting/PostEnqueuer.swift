package import FoundationEssentials
import Glibc
package import StorageUpload
internal import SystemSupport
package import Settings
package import Shooting
package import StoreValues
package import Failures
package import Publishing
package import DurableFiles
package import ShotValues

/// Turns the current shot into a post: a random name, its metadata, and a durable place in the
/// outbox. Uploading is the `OutboxUploader`'s job, so a post survives any failure after `enqueue`.
package struct PostEnqueuer: Sendable {
    package let workspace: ShotWorkspace
    package let outbox: Outbox
    package let configuration: RecorderConfiguration

    package init(workspace: ShotWorkspace, outbox: Outbox, configuration: RecorderConfiguration) {
        self.workspace = workspace
        self.outbox = outbox
        self.configuration = configuration
    }

    /// What `post` would do: checked in full, nothing changed (`--dry-run` prints it).
    package struct Plan: Sendable {
        package var shot: Shot
        package var metadata: PostMetadata
        /// The store's location and the metadata's address there.
        package var store: String
        package var metadataURL: String
        /// The video's size and checksums.
        package var digest: FileDigest
        /// The store the post is queued for; it is sent nowhere else.
        package var destination: StoreDestination
        /// The video posted: the shot's own, or the shot joined to an intro and outro (`joining`).
        package var videoPath: String
        /// What joining did, when there were bookends.
        package var join: JoinReport?
        /// The take the shot's effect was made from, posted beside it; nil when there is none.
        package var originalPath: String? = nil
    }

    /// Validates the caption, the configuration and the shot (the current one, or `shotID`: the
    /// current or a kept one), and drafts the metadata.
    package func plan(caption: String, shotID: String? = nil, now: Date = Date()) throws(RecorderError) -> Plan {
        let caption = try Caption.validate(caption)
        let backend = try configuration.makeBackend()
        let shot: Shot
        if let shotID {
            guard let found = workspace.shot(id: shotID) else {
                if let problem = workspace.problem(readingShot: shotID) {
                    throw .post(.shotUnreadable(id: shotID, problem: problem))
                }
                let known = [workspace.currentShotID()].compactMap { $0 } + workspace.keptShots().map(\.id)
                throw .post(.noSuchShot(id: shotID, workspace: workspace.root, known: known))
            }
            shot = found
        } else {
            guard let current = workspace.currentShot() else {
                if let id = workspace.currentShotID(), let problem = workspace.problem(readingShot: id) {
                    throw .post(.currentShotUnreadable(id: id, problem: problem))
                }
                throw .post(.noFinishedShot(workspace: workspace.root))
            }
            shot = current
        }
        if let answer = alreadyPosted(shot) { throw answer }
        guard Posix.allows(shot.videoPath, R_OK) else {
            throw .post(.videoMissing(path: shot.videoPath))
        }
        // A configured local directory that does not exist and never took a post from this outbox
        // (a typo) is said now, before anything is queued for it. One that did take posts is a
        // disk that is away: the post is queued and waits for it, as for a full or failing disk,
        // since the next shot would replace this one.
        do throws(StorageError) { try backend.prepare() } catch {
            if case .local(let code) = error.kind, code == ENOENT || code == ENOTDIR,
               !outbox.knows(store: backend.location, destination: backend.destination) {
                if code == ENOENT, let path = backend.destination.path { throw .post(.storeMissing(path: path)) }
                throw .post(.storeNotReady(error))
            }
        }
        let digest: FileDigest
        do throws(StorageError) {
            digest = try FileDigest.compute(path: shot.videoPath, partSize: backend.partSize(forSize: shot.byteSize))
        } catch {
            throw RecorderError(error)
        }
        var id = PostID.random()
        while outbox.isTaken(id) { id = PostID.random() }
        let key = PostMetadata.videoKey(id: id)
        let metadata = PostMetadata(
            id: id, video: "\(id).mp4", key: key, metadataKey: PostMetadata.metadataKey(id: id),
            url: backend.url(forKey: key), ext: "mp4", width: shot.width, height: shot.height,
            durationSeconds: shot.durationSeconds, frameRate: shot.frameRate, codec: shot.codec,
            byteSize: digest.size, sha256: digest.sha256, caption: caption, author: configuration.postAuthor,
            createdAt: RFC3339.string(now), camera: shot.source, likeCount: 0, shareCount: 0, commentCount: 0,
            audio: shot.audio, shareToken: ShareToken.random(), consent: shot.consent, prompt: shot.prompt,
            kiosk: try KioskID.configured(configuration), crc32: digest.crc32.map(CRC32.hex))
        if let consent = shot.consent { try checkConsentText(consent, of: shot) }
        var plan = Plan(shot: shot, metadata: metadata, store: backend.location,
                        metadataURL: backend.url(forKey: metadata.metadataKey), digest: digest, destination: backend.destination,
                        videoPath: shot.videoPath, join: nil)
        try addOriginal(to: &plan)
        return plan
    }

    /// The take an effect was made from goes with the post, named in its metadata with its
    /// checksum (`effect.original`), so the store keeps both.
    private func addOriginal(to plan: inout Plan) throws(RecorderError) {
        plan.metadata.effect = plan.shot.effect
        guard let path = plan.shot.originalPath, plan.shot.effect?.original != nil else { return }
        guard Posix.allows(path, R_OK) else { throw .post(.videoMissing(path: path)) }
        let digest: FileDigest
        do throws(StorageError) { digest = try FileDigest.compute(path: path) } catch { throw RecorderError(error) }
        plan.metadata.effect?.original?.key = PostMetadata.originalKey(id: plan.metadata.id)
        plan.metadata.effect?.original?.sha256 = digest.sha256
        plan.metadata.effect?.original?.byteSize = digest.size
        plan.originalPath = path
    }

    /// Moves the shot into the outbox (durably), marks the shot as posted, and returns the queued item.
    /// On failure the shot is untouched and nothing is queued.
    package func enqueue(_ plan: Plan) throws(RecorderError) -> OutboxItem {
        // (tried again for a moment: a lock can outlive its holder by a forked child's exec)
        let lock = try FileLock(path: workspace.root + "/.post-lock", busy: .post(.postingElsewhere(workspace: workspace.root)),
                                patienceSeconds: 2)
        if let answer = alreadyPosted(plan.shot) { throw answer }
        let item = try outbox.enqueue(video: plan.videoPath, metadata: plan.metadata, shotID: plan.shot.id, digest: plan.digest,
                                      destination: plan.destination,
                                      consentText: plan.shot.consent == nil ? nil : consentTextPath(plan.shot), original: plan.originalPath)
        let marker = PostedMarker(id: plan.metadata.id, outboxItem: item.directory, queuedAt: item.state.queuedAt)
        do {
            try DurableFile.write(try PostMetadata.encoder.encode(marker), to: markerPath(plan.shot))
        } catch {
            // The post is queued either way; the outbox scan in `alreadyPosted` still finds it.
        }
        // The outbox holds the video now; the workspace copy would only take room (often in RAM).
        // (The shot's own too when a joined one went: it is in the post.) Best effort: a copy
        // that stays only takes that room until the shot is replaced; the post is queued.
        try? Posix.unlink(plan.shot.videoPath)
        if plan.videoPath != plan.shot.videoPath { try? Posix.unlink(plan.videoPath) }
        if let original = plan.originalPath { try? Posix.unlink(original) }
        _ = consume lock
        return item
    }

    private func consentTextPath(_ shot: Shot) -> String {
        FilePaths.join(FilePaths.directory(of: shot.videoPath), Consent.textFileName)
    }

    /// A shot recorded under a guest's yes goes out only with the very text the guest was shown.
    private func checkConsentText(_ consent: Consent, of shot: Shot) throws(RecorderError) {
        let path = consentTextPath(shot)
        guard let text = FileSystem.dataIfReadable(path), FileDigest.sha256([UInt8](text)) == consent.textSha256 else {
            throw .post(.consentTextChanged(shot: shot.id, path: path, sha256: consent.textSha256))
        }
    }

    private func markerPath(_ shot: Shot) -> String {
        FilePaths.join(FilePaths.directory(of: shot.videoPath), PostedMarker.fileName)
    }

    /// The post `shot` became, if it was posted (its `posted.json` marker).
    package func postedID(_ shot: Shot) -> String? {
        marker(shot)?.id
    }

    /// `shot`'s `posted.json`, if it was posted.
    package func marker(_ shot: Shot) -> PostedMarker? {
        guard let data = FileSystem.dataIfReadable(markerPath(shot)) else { return nil }
        return try? JSONDecoder().decode(PostedMarker.self, from: data)
    }

    /// Post `id` was deleted: the shot it came from (the current one, or one kept beside it) says so
    /// in its marker. Best effort: a shot replaced meanwhile has no marker left to tell.
    package func postDeleted(id: String, at date: Date = Date()) {
        for shot in [workspace.currentShot()].compactMap({ $0 }) + workspace.keptShots() {
            guard var marker = marker(shot), marker.id == id, marker.deletedAt == nil,
                  let data = try? PostMetadata.encoder.encode({ marker.deletedAt = RFC3339.string(date); return marker }()) else { continue }
            // (the post is gone either way; a marker not rewritten only keeps saying "posted as")
            try? DurableFile.write(data, to: markerPath(shot))
        }
    }

    /// The answer to posting a shot twice: where the first post went.
    package func alreadyPosted(_ shot: Shot) -> RecorderError? {
        var id = postedID(shot)
        if id == nil, let queued = outbox.items().first(where: { $0.state.shotID == shot.id }) {
            id = queued.metadata.id
        }
        guard let id else { return nil }
        let whereItIs: PostFailure.PostedWhere
        if let receipt = outbox.receipt(id: id) {
            whereItIs = .uploaded(at: receipt.uploadedAt, video: receipt.videoURL, metadata: receipt.metadataURL)
        } else if let item = outbox.item(id: id) {
            whereItIs = .queued(directory: item.directory)
        } else {
            whereItIs = .unknown
        }
        return .post(.alreadyPosted(id: id, whereItIs: whereItIs))
    }
}
