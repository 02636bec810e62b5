import FoundationEssentials
import Glibc
package import StorageUpload
package import SystemSupport
package import Settings
package import ShotValues
package import MediaValues
package import StoreValues
package import Failures
package import DurableFiles

/// Sends the outbox to a store, oldest post first. A retryable failure (network, timeout, 5xx,
/// throttling) is retried with backoff and full jitter, forever unless the policy caps the
/// attempts; any other failure stops the flush, since the posts behind it would meet it too.
/// Nothing leaves the queue before the store has confirmed both objects.
package struct OutboxUploader: Sendable {
    package let outbox: Outbox
    package let backend: any StorageBackend
    package let policy: RetryPolicy
    /// Where each post's share link points.
    package let share: ShareLinks
    /// Told what the upload did beside its result (the edge words it: `OutboxUploader.Note`).
    let log: @Sendable (Note) -> Void
    /// Makes a post's poster (a JPEG of its video's first picture) when it has none (the booth's
    /// `PosterFrame.jpeg`: this module links no encoder).
    let poster: PosterMaker
    /// Told which post is about to go up, before each attempt (the kiosk shows it with its progress).
    let willSend: @Sendable (OutboxItem) -> Void
    /// The wait between a post's attempts.
    private let backoff: ClockWait

    /// `clock` counts the waits between a post's attempts (a `TestClock` in tests).
    package init(outbox: Outbox, backend: any StorageBackend, policy: RetryPolicy, share: ShareLinks = ShareLinks(),
                clock: any RecorderClock = SystemClock(), poster: @escaping PosterMaker,
                log: @escaping @Sendable (Note) -> Void, willSend: @escaping @Sendable (OutboxItem) -> Void = { _ in }) {
        self.share = share
        self.poster = poster
        backoff = ClockWait(clock: clock)
        self.outbox = outbox
        self.backend = backend
        self.policy = policy
        self.log = log
        self.willSend = willSend
    }

    /// What a flush says beside its result, with its data: the edge that shows it words it.
    package enum Note: Sendable, Equatable {
        /// Post `id`'s upload failed for a reason trying again may cure: it is tried again in `seconds`.
        case retrying(id: String, StorageError, seconds: Double)
        /// Post `id`'s failure could not be recorded in its state file at `path` (it stays queued).
        case cannotRecordFailure(id: String, path: String, RecorderError)
        /// The store had a post named `from`: this one is now `to`.
        case renamed(from: String, to: String)
        /// No poster can be made of post `id`'s video: it goes up without one.
        case withoutPoster(id: String, MediaError)
    }

    /// What a flush did.
    package struct Report: Sendable {
        package var uploaded: [PostReceipt] = []
        /// Still queued, oldest first.
        package var remaining: [OutboxItem] = []
        /// Why the flush stopped early, if it did.
        package var failure: RecorderError?
        /// Queued for another store than this flush's: left queued, never sent here.
        package var elsewhere: [OutboxItem] = []
    }

    /// Uploads everything queued (including what is queued while it runs).
    package func flush() throws(RecorderError) -> Report {
        // Held to the end of the flush (consumed below), not just to its last use.
        let lock = try outbox.lock()
        outbox.cleanStale()
        var report = Report()
        let here = backend.destination
        while let item = outbox.items().first(where: { $0.state.isFor(here) }) {
            do throws(RecorderError) {
                report.uploaded.append(try send(item))
            } catch {
                report.failure = error
                break
            }
        }
        let left = outbox.items()
        report.remaining = left.filter { $0.state.isFor(here) }
        report.elsewhere = left.filter { !$0.state.isFor(here) }
        _ = consume lock
        return report
    }

    /// One post, with retries.
    private func send(_ original: OutboxItem) throws(RecorderError) -> PostReceipt {
        var item = original
        var failures = 0
        while true {
            item.state.attempts += 1
            willSend(item)
            let outcome: Result<PostReceipt, StorageError>
            do throws(StorageError) { outcome = .success(try upload(&item)) } catch { outcome = .failure(error) }
            switch outcome {
            case .success(let receipt):
                try outbox.complete(item, receipt: receipt)
                return receipt
            case .failure(let error):
                (item.state.lastFailure, item.state.lastError) = (error, nil)
                // The post stays queued either way; a state that cannot be written (a full or
                // read-only disk) is said, not swallowed: its error and attempts would be stale.
                do throws(RecorderError) { try item.saveState() } catch {
                    log(.cannotRecordFailure(id: item.metadata.id, path: item.statePath, error))
                }
                failures += 1
                guard error.isRetryable else {
                    throw .post(.notUploaded(id: item.metadata.id, queuedIn: item.directory, error))
                }
                guard policy.allowsAnother(after: failures) else {
                    // The post's own count, kept across flushes: the kiosk's drain flushes once per
                    // retry, and its page must see the count rise.
                    let attempts = item.state.attempts
                    throw .post(.stillQueued(id: item.metadata.id, queuedIn: item.directory, attempts: attempts, error))
                }
                let wait = policy.delay(afterFailures: failures)
                log(.retrying(id: item.metadata.id, error, seconds: wait))
                // (by the clock, on a semaphore: a test's clock moves it; Ctrl-C ends the process,
                // and the post stays queued)
                backoff.wait(seconds: wait)
            }
        }
    }

    /// Sends the video then the metadata (so a reader that finds the metadata finds the video),
    /// skipping an object an earlier attempt already stored, then confirms both.
    func upload(_ item: inout OutboxItem) throws(StorageError) -> PostReceipt {
        // The checksums were taken when the post was queued; the store checks the bytes against them
        // (Content-MD5, x-amz-content-sha256) and the result is checked against the ETag below.
        let onDisk = FileSystem.size(of: item.videoPath) ?? -1
        let digest: FileDigest
        if let known = item.state.digest, known.size == onDisk {
            digest = known
        } else {
            digest = try FileDigest.compute(path: item.videoPath, partSize: backend.partSize(forSize: onDisk))
        }
        guard digest.sha256 == item.metadata.sha256, digest.size == item.metadata.byteSize, digest.size == onDisk else {
            throw StorageError(.mismatch, .queuedVideoDamaged(path: item.videoPath), retryable: false)
        }
        try backend.prepare()
        var videoStored = false
        var metadataMissing = false
        while true {
            try refreshURL(&item)
            if let existing = try backend.stat(key: item.metadata.key) {
                if try backend.matches(existing, path: item.videoPath, digest: digest) {
                    videoStored = true
                    break
                }
            } else if try backend.stat(key: item.metadata.metadataKey) == nil {
                metadataMissing = true
                break
            }
            // The name is taken by somebody else's post: draw another, never overwrite.
            let old = item.metadata.id
            var id = PostID.random()
            while outbox.isTaken(id) { id = PostID.random() }
            item.metadata.rename(to: id, url: backend.url(forKey: PostMetadata.videoKey(id: id)))
            try saveMetadata(item)
            log(.renamed(from: old, to: id))
        }
        var expectedETag: String?
        if !videoStored {
            expectedETag = try backend.upload(path: item.videoPath, key: item.metadata.key, contentType: "video/mp4",
                                              digest: digest, journal: item.journalPath)
        }
        try storeOriginal(item)
        try storePoster(&item)
        try storeConsentText(item)
        let metadataDigest = try FileDigest.compute(path: item.metadataPath)
        var metadataStored = false
        if !metadataMissing, let stored = try backend.stat(key: item.metadata.metadataKey) {
            metadataStored = try backend.matches(stored, path: item.metadataPath, digest: metadataDigest)
        }
        if !metadataStored {
            try backend.upload(path: item.metadataPath, key: item.metadata.metadataKey, contentType: "application/json",
                               digest: metadataDigest, journal: item.journalPath)
        }
        var videoConfirmed = false
        if let video = try backend.stat(key: item.metadata.key), video.size == digest.size {
            if let expectedETag {
                videoConfirmed = expectedETag == video.etag?.lowercased()
            } else {
                videoConfirmed = try backend.matches(video, path: item.videoPath, digest: digest)
            }
        }
        guard videoConfirmed,
              let metadata = try backend.stat(key: item.metadata.metadataKey),
              try backend.matches(metadata, path: item.metadataPath, digest: metadataDigest) else {
            throw StorageError(.mismatch, .notHeld(id: item.metadata.id), retryable: true)
        }
        // Last, so a post in the feed is a whole post; a failure here retries with both objects kept.
        try PostFeed(store: backend).index(item.metadata)
        return PostReceipt(id: item.metadata.id, shotID: item.state.shotID, videoURL: backend.url(forKey: item.metadata.key),
                           metadataURL: backend.url(forKey: item.metadata.metadataKey), store: backend.location,
                           uploadedAt: RFC3339.string(backoff.clock.date), shareURL: item.metadata.shareURL, shareExpiresAt: item.metadata.shareExpiresAt)
    }

    /// The poster (`thumbs/<id>.jpg`), made from the queued video on the first attempt and kept
    /// beside it, goes up before the metadata that names it. A video no poster can be made of goes
    /// up without one (the log says why): a missing picture never holds a post back.
    private func storePoster(_ item: inout OutboxItem) throws(StorageError) {
        var poster = FileSystem.contentsIfReadable(item.posterPath)
        if poster == nil {
            do throws(MediaError) {
                let made = try self.poster(item.videoPath)
                // Kept so a retry sends the same bytes; if it cannot be kept, the next attempt makes it again.
                try? DurableFile.write(Data(made), to: item.posterPath)
                poster = made
            } catch {
                log(.withoutPoster(id: item.metadata.id, error))
            }
        }
        guard let poster else { return }
        let key = PostMetadata.thumbnailKey(id: item.metadata.id)
        if try backend.stat(key: key)?.size != Int64(poster.count) {
            try backend.write(poster, key: key, contentType: "image/jpeg")
        }
        let url = backend.url(forKey: key)
        guard item.metadata.thumbnailKey != key || item.metadata.thumbnailURL != url else { return }
        (item.metadata.thumbnailKey, item.metadata.thumbnailURL) = (key, url)
        try saveMetadata(item)
    }

    /// The take an effect was made from goes up before the metadata that names it, checked
    /// against the checksum it was queued with (a copy the store already holds is not sent again).
    private func storeOriginal(_ item: OutboxItem) throws(StorageError) {
        guard let original = item.metadata.effect?.original, let key = original.key, let sha256 = original.sha256 else { return }
        let digest = try FileDigest.compute(path: item.originalPath, partSize: backend.partSize(forSize: original.byteSize))
        guard digest.sha256 == sha256, digest.size == original.byteSize else {
            throw StorageError(.mismatch, .queuedVideoDamaged(path: item.originalPath), retryable: false)
        }
        if let stored = try backend.stat(key: key), try backend.matches(stored, path: item.originalPath, digest: digest) { return }
        let etag = try backend.upload(path: item.originalPath, key: key, contentType: "video/mp4", digest: digest, journal: item.originalJournalPath)
        guard let stored = try backend.stat(key: key), stored.size == digest.size,
              etag.map({ $0 == stored.etag?.lowercased() }) ?? true else {
            throw StorageError(.mismatch, .notHeld(id: item.metadata.id), retryable: true)
        }
    }

    /// The text a guest agreed to goes up before the metadata that names it, once per text
    /// (`consent/<sha256>.txt`: every post under the same text shares it).
    private func storeConsentText(_ item: OutboxItem) throws(StorageError) {
        guard let consent = item.metadata.consent else { return }
        guard let text = FileSystem.contentsIfReadable(item.consentPath),
              FileDigest.sha256(text) == consent.textSha256 else {
            throw StorageError(.mismatch, .consentTextDamaged(id: item.metadata.id, sha256: consent.textSha256, path: item.consentPath), retryable: false)
        }
        let key = Consent.textKey(sha256: consent.textSha256)
        if try backend.stat(key: key)?.size != Int64(text.count) {
            try backend.write(text, key: key, contentType: "text/plain; charset=utf-8")
        }
    }

    /// The metadata names the store it is sent to (the configuration may have changed since `post`).
    /// ... and the share link to it (a presigned one is made anew for each attempt, so it lives
    /// its whole time from the upload).
    private func refreshURL(_ item: inout OutboxItem) throws(StorageError) {
        let url = backend.url(forKey: item.metadata.key)
        let link = share.link(id: item.metadata.id, key: item.metadata.key, token: item.metadata.shareToken, store: backend,
                              createdAt: item.metadata.createdAt)
        guard item.metadata.url != url || item.metadata.shareURL != link?.url else { return }
        item.metadata.url = url
        (item.metadata.shareURL, item.metadata.shareExpiresAt) = (link?.url, link?.expiresAt)
        try saveMetadata(item)
    }

    private func saveMetadata(_ item: OutboxItem) throws(StorageError) {
        do throws(RecorderError) { try item.saveMetadata() } catch {
            // The file's own error, errno and all.
            if case .storage(let cause) = error.cause { throw cause }
            // Only a metadata that cannot be encoded comes without one (a bug, not the disk).
            let failure = if case .internalFailure(.cannotEncode(_, let failure)) = error { failure } else { EncodingFailure.other(type: error.caseName) }
            throw StorageError(.mismatch, .metadataUnwritable(failure: failure), retryable: false)
        }
    }
}
