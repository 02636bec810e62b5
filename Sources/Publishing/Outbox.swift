package import FoundationEssentials
import Glibc
package import StorageUpload
package import SystemSupport
package import Settings
package import StoreValues
package import Failures
package import DurableFiles
import ShotValues

/// The durable queue of posts waiting for the store.
///
/// Layout: `queue/<queued-ns>-<id>/` holds `video.mp4`, `post.json` (the metadata to publish),
/// `state.json` (shot, attempts, last error) and, during a multipart upload, `upload.json` (the
/// part journal). An item appears only whole (built in `queue/.incoming-<id>`, fsynced, renamed)
/// and is removed only after the store confirmed both objects; `sent/<id>.json` then records
/// where they went. Names sort by queueing time, which is the upload order.
package struct Outbox: Sendable {
    package let root: String
    /// When an item is queued, by this clock (a `TestClock` in tests).
    package let clock: any RecorderClock

    package init(root: String, clock: any RecorderClock = .system) {
        self.root = root
        self.clock = clock
    }

    var queueDirectory: String { root + "/queue" }
    var sentDirectory: String { root + "/sent" }
    /// `stores/<sha256 of the store's location>`: one file per store this outbox has delivered to.
    var storesDirectory: String { root + "/stores" }

    package func prepare() throws(RecorderError) {
        for dir in [queueDirectory, sentDirectory] {
            do throws(StorageError) {
                try LocalFiles.createDirectories(dir, mode: 0o700, elsewhere: .outbox)
            } catch {
                throw RecorderError(error)
            }
        }
    }

    /// Queued posts, oldest first.
    package func items() -> [OutboxItem] {
        queuedFolders().compactMap { OutboxItem(directory: $0) }
    }

    /// Queued folders whose metadata or state cannot be read (damaged by hand or by the disk): they
    /// are never uploaded or removed, only reported, so nothing is lost silently.
    package func unreadableItems() -> [String] {
        queuedFolders().filter { OutboxItem(directory: $0) == nil }
    }

    private func queuedFolders() -> [String] {
        FileSystem.names(in: queueDirectory)
            .filter { !$0.hasPrefix(".") }.sorted().map { "\(queueDirectory)/\($0)" }
    }

    /// Queued post `id`: only its own folder is read (a folder's name ends with its post's id).
    package func item(id: String) -> OutboxItem? {
        queuedFolders().filter { $0.hasSuffix("-" + id) }.lazy.compactMap { OutboxItem(directory: $0) }.first { $0.metadata.id == id }
    }

    package func receipt(id: String) -> PostReceipt? {
        guard let data = FileSystem.dataIfReadable("\(sentDirectory)/\(id).json") else { return nil }
        return try? JSONDecoder().decode(PostReceipt.self, from: data)
    }

    /// Whether this outbox has delivered a post to the store at `location`, or holds one queued
    /// for `destination`: a local store that took posts and is missing now is a disk that is away
    /// (a post waits for it), where one never seen is a typo (refused before anything is queued).
    package func knows(store location: String, destination: StoreDestination) -> Bool {
        if Posix.allows(storeRecordPath(location), F_OK) { return true }
        if items().contains(where: { $0.state.destination?.isSameStore(as: destination) ?? false }) { return true }
        // Receipts from before `stores/` was kept (read only here, when the store is missing).
        return FileSystem.names(in: sentDirectory).contains { name in
            name.hasSuffix(".json") && !name.hasPrefix(".")
                && (FileSystem.dataIfReadable("\(sentDirectory)/\(name)")
                    .flatMap { try? JSONDecoder().decode(PostReceipt.self, from: $0) }?.store == location)
        }
    }

    private func storeRecordPath(_ location: String) -> String {
        "\(storesDirectory)/\(FileDigest.sha256(Array(location.utf8)))"
    }

    /// Whether `id` is already used by a queued or sent post of this machine.
    package func isTaken(_ id: String) -> Bool {
        Posix.allows("\(sentDirectory)/\(id).json", F_OK) || item(id: id) != nil
    }

    /// Puts a post in the queue: the video is hard-linked (same file system) or copied and fsynced,
    /// the metadata and state written and fsynced, then the folder renamed into the queue. On any
    /// failure the partial folder is removed and `video` is untouched.
    package func enqueue(video: String, metadata: PostMetadata, shotID: String, digest: FileDigest? = nil,
                         destination: StoreDestination? = nil, consentText: String? = nil, original: String? = nil) throws(RecorderError) -> OutboxItem {
        try prepare()
        // The pid lets a flush in another process tell a live enqueue from a crashed one.
        let incoming = "\(queueDirectory)/.incoming-\(metadata.id)-\(Posix.processID)"
        FileSystem.removeTreeIfThere(incoming)
        try DurableFile.run("create", incoming) { () throws(Descriptors.Errno) in try Posix.mkdir(incoming, mode: 0o700) }
        do throws(RecorderError) {
            let queuedAt = RFC3339.string(clock.date)
            let state = OutboxItemState(shotID: shotID, queuedAt: queuedAt, attempts: 0, lastError: nil, digest: digest,
                                        destination: destination)
            try DurableFile.write(try metadata.jsonData(), to: "\(incoming)/\(OutboxItem.metadataName)")
            try DurableFile.write(try state.jsonData(), to: "\(incoming)/\(OutboxItem.stateName)")
            // Linked when the outbox is on the same file system; else (EXDEV, or any refusal) copied.
            for (from, name) in [(video, OutboxItem.videoName), (original, OutboxItem.originalName)] {
                guard let from else { continue }
                let copy = "\(incoming)/\(name)"
                if (try? Posix.link(from, to: copy)) != nil {
                    try DurableFile.fsyncFile(copy)
                } else {
                    do throws(StorageError) { try LocalFiles.copySynced(from: from, to: copy) } catch {
                        throw .post(.cannotCopyVideo(error))
                    }
                }
            }
            if let consentText {
                do throws(StorageError) { try LocalFiles.copySynced(from: consentText, to: "\(incoming)/\(Consent.textFileName)") } catch {
                    throw .post(.cannotQueueConsentText(error))
                }
            }
            let now = Posix.wallClock()
            let name = String(cFormat: "%010ld%09ld-", now.seconds, now.nanoseconds) + metadata.id
            let final = "\(queueDirectory)/\(name)"
            try DurableFile.rename(incoming, to: final)
            guard let item = OutboxItem(directory: final) else {
                throw .post(.queuedUnreadable(path: final))
            }
            return item
        } catch {
            FileSystem.removeTreeIfThere(incoming)
            throw error
        }
    }

    /// The records of posts sent before `cutoff` (retention.local_days), removed unless `dryRun`:
    /// their ids. A post still queued is never touched here.
    package func removeSentRecords(before cutoff: Date, dryRun: Bool) -> [String] {
        var gone: [String] = []
        for name in FileSystem.names(in: sentDirectory) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = "\(sentDirectory)/\(name)"
            let receipt = FileSystem.dataIfReadable(path).flatMap { try? JSONDecoder().decode(PostReceipt.self, from: $0) }
            // (a record that cannot be read goes by its file's age)
            guard let sent = receipt.flatMap({ RFC3339.date($0.uploadedAt) })
                    ?? FileSystem.status(of: path).map({ Date(timeIntervalSince1970: $0.modified) }),
                  sent < cutoff else { continue }
            // (one that cannot be removed now is left for the next purge, and not reported gone)
            if !dryRun, (try? Posix.unlink(path)) == nil { continue }
            gone.append(String(name.dropLast(5)))
        }
        return gone.sorted()
    }

    /// Records where the post went, then removes it from the queue.
    func complete(_ item: OutboxItem, receipt: PostReceipt) throws(RecorderError) {
        let data: Data
        do { data = try PostReceipt.encoder.encode(receipt) } catch {
            throw RecorderError(InternalFailure.cannotEncode(document: .receipt, failure: EncodingFailure(error)))
        }
        try DurableFile.write(data, to: "\(sentDirectory)/\(receipt.id).json")
        // The store has taken a post: if it is missing later, its disk is away (see `knows`).
        // (best effort: the post is delivered either way, and its receipt also names the store)
        if !Posix.allows(storeRecordPath(receipt.store), F_OK) {
            try? DurableFile.makeDirectory(storesDirectory)
            try? DurableFile.write(Data(receipt.store.utf8), to: storeRecordPath(receipt.store))
        }
        let trash = "\(queueDirectory)/.sent-\(receipt.id)"
        try DurableFile.rename(item.directory, to: trash)
        FileSystem.removeTreeIfThere(trash)
    }

    /// Only one process uploads the queue at a time.
    func lock() throws(RecorderError) -> FileLock {
        try prepare()
        return try FileLock(path: root + "/.lock", busy: .post(.outboxBusy(root: root)))
    }

    /// Points a queued post at another store (`recorder outbox retarget`): the only way a post goes
    /// anywhere but where it was queued for. Takes the outbox lock, so no flush is sending it now.
    package func retarget(id: String, to destination: StoreDestination) throws(RecorderError) -> (item: OutboxItem, previous: StoreDestination?) {
        let lock = try lock()
        guard var item = item(id: id) else {
            throw .post(.notQueued(id: id, outbox: root, queued: items().map(\.metadata.id)))
        }
        let previous = item.state.destination
        item.state.destination = destination
        try item.saveState()
        _ = consume lock
        return (item, previous)
    }

    /// Takes queued post `id` out of the queue, never to be sent (its guest deleted it before it
    /// went): false when it is not queued (sent meanwhile, or never here). Takes the outbox lock, so
    /// no flush is sending it now (busy while one is).
    package func withdraw(id: String) throws(RecorderError) -> Bool {
        let lock = try lock()
        guard let item = item(id: id) else { return false }
        // Out of the queue in one rename; what is left of it after a crash, cleanStale removes.
        let trash = "\(queueDirectory)/.withdrawn-\(id)"
        FileSystem.removeTreeIfThere(trash)
        try DurableFile.rename(item.directory, to: trash)
        FileSystem.removeTreeIfThere(trash)
        _ = consume lock
        return true
    }

    /// Removes folders left by a process killed while queueing (its pid is gone), completing
    /// (the receipt is already written) or withdrawing. Call with the lock held.
    func cleanStale() {
        for name in FileSystem.names(in: queueDirectory) {
            if name.hasPrefix(".incoming-") {
                guard let pid = name.split(separator: "-").last.flatMap({ pid_t($0) }), !Posix.processExists(pid) else { continue }
            } else if !name.hasPrefix(".sent-") && !name.hasPrefix(".withdrawn-") {
                continue
            }
            FileSystem.removeTreeIfThere("\(queueDirectory)/\(name)")
        }
    }
}

/// One queued post.
package struct OutboxItem: Sendable {
    static let videoName = "video.mp4"
    /// The take an effect was made from (`effect.original`).
    static let originalName = "take.mp4"
    static let metadataName = "post.json"
    static let stateName = "state.json"
    static let journalName = "upload.json"

    package let directory: String
    package internal(set) var metadata: PostMetadata
    package internal(set) var state: OutboxItemState

    init?(directory: String) {
        guard let meta = FileSystem.dataIfReadable("\(directory)/\(Self.metadataName)"),
              let metadata = try? PostMetadata.decode(meta) else { return nil }
        // A state that is there but cannot be read makes the item unreadable, never "for any store":
        // its destination is in it, and a post must not go to another store than it was queued for.
        // (Only a post queued before the state was kept has none; it goes to the flush's store.)
        var state: OutboxItemState?
        if let bytes = FileSystem.dataIfReadable("\(directory)/\(Self.stateName)") {
            guard let decoded = try? JSONDecoder().decode(OutboxItemState.self, from: bytes) else { return nil }
            state = decoded
        } else if FileSystem.isThere("\(directory)/\(Self.stateName)") {
            return nil
        }
        self.directory = directory
        self.metadata = metadata
        self.state = state ?? OutboxItemState(shotID: "", queuedAt: metadata.createdAt, attempts: 0, lastError: nil, digest: nil)
    }

    package var videoPath: String { "\(directory)/\(Self.videoName)" }
    /// The take the video was made from, for a post with `effect.original`.
    package var originalPath: String { "\(directory)/\(Self.originalName)" }
    package var metadataPath: String { "\(directory)/\(Self.metadataName)" }
    /// The poster, made from the video on the first upload attempt.
    package var posterPath: String { "\(directory)/poster.jpg" }
    /// The consent text the guest agreed to, for a post that carries a `consent`.
    var consentPath: String { "\(directory)/\(Consent.textFileName)" }
    var statePath: String { "\(directory)/\(Self.stateName)" }
    var journalPath: String { "\(directory)/\(Self.journalName)" }
    /// The part journal of the take's upload (its own: the video's may be resumed after it).
    var originalJournalPath: String { "\(directory)/upload-take.json" }

    func saveMetadata() throws(RecorderError) {
        try DurableFile.write(try metadata.jsonData(), to: metadataPath)
    }

    func saveState() throws(RecorderError) {
        try DurableFile.write(try state.jsonData(), to: statePath)
    }
}

/// Bookkeeping of a queued post (not published).
package struct OutboxItemState: Sendable, Codable, Equatable {
    package var shotID: String
    package var queuedAt: String
    package var attempts: Int
    /// The last upload's failure, as words: what an outbox before 0.5.0's successor kept (read,
    /// never written now).
    package var lastError: String?
    /// The last upload's failure, with its data (the edges word it).
    package var lastFailure: StorageError? = nil
    /// The video's size and checksums, computed once when it was queued.
    package var digest: FileDigest?
    /// The store the post was queued for; nil for a post queued before destinations were kept,
    /// which goes to the store of the flush that sends it.
    package var destination: StoreDestination? = nil

    /// Whether a flush to `store` may send this post.
    package func isFor(_ store: StoreDestination) -> Bool {
        destination.map { $0.isSameStore(as: store) } ?? true
    }

    func jsonData() throws(RecorderError) -> Data {
        do { return try PostMetadata.encoder.encode(self) } catch {
            throw RecorderError(InternalFailure.cannotEncode(document: .outboxState, failure: EncodingFailure(error)))
        }
    }
}

/// Where a post went, kept in `sent/<id>.json` after the store confirmed it.
package struct PostReceipt: Sendable, Codable, Equatable {
    package var id: String
    package var shotID: String
    package var videoURL: String
    package var metadataURL: String
    package var store: String
    package var uploadedAt: String
    /// The link to give a guest (ShareLinks); nil when the store gives none.
    package var shareURL: String? = nil
    package var shareExpiresAt: String? = nil

    static let encoder = PostMetadata.encoder
}
