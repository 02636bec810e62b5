package import FoundationEssentials
package import StorageUpload
package import Settings
package import StoreValues
package import Failures
import SystemSupport

/// One post as the feed shows it.
package struct FeedEntry: Sendable, Encodable, Equatable {
    package var id: String
    /// The caption's first line.
    package var caption: String
    /// UTC, RFC 3339.
    package var createdAt: String
    package var durationSeconds: Double?
    package var byteSize: Int64?
    package var author: String?
    package var sha256: String?
    /// The post's share link and when it stops working, as its metadata has them.
    package var shareURL: String?
    package var shareExpiresAt: String?
    /// The post's poster in the store (`thumbs/<id>.jpg`) and its address; absent for a post without one.
    package var thumbnailKey: String?
    package var thumbnailURL: String?
    /// Why the entry is incomplete; nil when it is whole.
    package var problem: Problem?
    /// When the post expires under `retention.days` (RFC 3339); absent when posts are kept.
    package var expiresAt: String?
    /// The question the guest answered (`kiosk.prompts`), when there was one.
    package var prompt: String?
    /// The kiosk that posted it (`kiosk.id`), as its metadata says; absent for older posts.
    package var kiosk: String?
}

extension FeedEntry {
    /// Why a post's entry is incomplete (`FeedEntryProblem`, Failures).
    package typealias Problem = FeedEntryProblem
}

/// One page of the feed, newest first.
package struct FeedPage: Sendable, Encodable, Equatable {
    package var entries: [FeedEntry]
    /// The page number asked for, when paging by number (1 is the newest).
    package var page: Int?
    package var size: Int
    /// The id to pass as `--after` (or `?after=`) for the next page; nil on the last page.
    package var next: String?
}

/// A store posts are in, as the edges hold one (`RecorderConfiguration.makeBackend`'s).
package typealias PostStore = any StorageBackend

/// Which store a post goes to (backend, endpoint, bucket, prefix or directory), as an outbox item
/// and the edges name it.
package typealias PostDestination = StoreDestination

/// The posts in a store, newest first, read page by page from small index objects.
///
/// Posts are named randomly, so their keys say nothing about age. Each post therefore gets an index
/// object `feed/<10 digits: 9999999999 - seconds since 1970>-<id>-<kiosk id>.json` once it is
/// uploaded (posts from before kiosks had ids: `...-<id>.json`): byte order of the keys is newest first, and a page is one listing request (`max-keys`,
/// `start-after`) plus one read per post. Paging by number skips whole listings of up to 1,000
/// keys; paging with a cursor (`after`) is stable while posts arrive.
package struct PostFeed: Sendable {
    package let store: any StorageBackend
    package static let folder = "feed/"
    /// The largest page: a page is read in one listing request.
    package static let maximumPageSize = 1000

    package init(store: any StorageBackend) {
        self.store = store
    }

    /// The store's place in words, for messages ("s3://bucket/prefix", a directory).
    package var location: String { store.location }

    /// What an index object holds: enough to rebuild its key.
    struct IndexRecord: Codable {
        var id: String
        var createdAt: String
        /// In `feed-hidden/`: an operator took it out of the feed.
        var hidden: Bool?
    }

    /// The index object's bytes. (Encoding two strings does not fail; were it ever to, the write
    /// fails with it rather than putting an empty index object in the store.)
    static func record(id: String, createdAt: String, hidden: Bool) throws(StorageError) -> [UInt8] {
        do {
            return [UInt8](try JSONEncoder().encode(IndexRecord(id: id, createdAt: createdAt, hidden: hidden ? true : nil)))
        } catch {
            throw StorageError(.configuration, .cannotEncodeIndex(id: id, failure: EncodingFailure(error)), retryable: false)
        }
    }

    /// The index key of a post created at `createdAt` (RFC 3339; seconds since 1970 as a fallback),
    /// posted by kiosk `kiosk` (nil: a post from before kiosks had ids).
    package static func indexKey(id: String, createdAt: String, kiosk: String?, fallbackSeconds: Double? = nil) -> String {
        let seconds = RFC3339.date(createdAt)?.timeIntervalSince1970 ?? fallbackSeconds ?? 0
        return folder + timeDigits(seconds) + "-" + id + (kiosk.map { "-" + $0 } ?? "") + ".json"
    }

    /// A post's index key as its (checked) metadata names it.
    static func indexKey(_ metadata: PostMetadata) -> String {
        indexKey(id: metadata.id, createdAt: metadata.createdAt, kiosk: metadata.kiosk)
    }

    /// An index key's first part: 9999999999 - whole seconds since 1970, in 10 digits (newest first).
    package static func timeDigits(_ seconds: Double) -> String {
        let digits = String(max(0, 9_999_999_999 - Int64(seconds.rounded(.down))))
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    /// When the post an index key (in either folder) names was created, to the second; nil for a
    /// key that is not one.
    package static func creationTime(inIndexKey key: String) -> Date? {
        guard let slash = key.firstIndex(of: "/"), let inverted = Int64(key[key.index(after: slash)...].prefix(10)) else { return nil }
        return Date(timeIntervalSince1970: Double(9_999_999_999 - inverted))
    }

    /// The hidden folder's index key of the post `visible` (a `feed/` key) names.
    package static func hiddenKey(_ visible: String) -> String {
        hiddenFolder + visible.dropFirst(folder.count)
    }

    /// The post id and kiosk id in a `feed/` index key (no kiosk id in an older post's); nil for a
    /// key that is not one.
    package static func parts(ofIndexKey key: String) -> (id: String, kiosk: String?)? {
        guard key.hasPrefix(folder), key.hasSuffix(".json") else { return nil }
        let name = key.dropFirst(folder.count).dropLast(5)
        guard let dash = name.firstIndex(of: "-") else { return nil }
        let rest = name[name.index(after: dash)...]
        let id = String(rest.prefix(PostID.length))
        guard PostID.isValid(id) else { return nil }
        let tail = rest.dropFirst(PostID.length)
        if tail.isEmpty { return (id, nil) }
        guard tail.first == "-", KioskID.isValid(String(tail.dropFirst())) else { return nil }
        return (id, String(tail.dropFirst()))
    }

    /// The id in an index key, or nil for a key that is not one.
    package static func id(inIndexKey key: String) -> String? {
        parts(ofIndexKey: key)?.id
    }

    /// Writes the index object of a post (after its video and metadata are in the store).
    package func index(_ metadata: PostMetadata) throws(StorageError) {
        let object = try Self.indexObject(id: metadata.id, createdAt: metadata.createdAt, kiosk: metadata.kiosk)
        try store.write(object.bytes, key: object.key, contentType: "application/json")
    }

    /// A visible post's index object: its bytes and its key.
    private static func indexObject(id: String, createdAt: String, kiosk: String?, fallbackSeconds: Double? = nil) throws(StorageError) -> (bytes: [UInt8], key: String) {
        (try record(id: id, createdAt: createdAt, hidden: false), indexKey(id: id, createdAt: createdAt, kiosk: kiosk, fallbackSeconds: fallbackSeconds))
    }

    /// Page `number` (1 = newest) of `size` posts. Cost: one listing per 1,000 posts skipped, one
    /// for the page, and one read per post on it.
    package func page(_ number: Int, size: Int) throws(RecorderError) -> FeedPage {
        let size = try Self.checkSize(size)
        guard number >= 1 else {
            throw .feed(.pageOutOfRange(number))
        }
        var skip = (number - 1) * size
        var startAfter: String?
        do throws(StorageError) {
            while skip > 0 {
                let listing = try store.list(prefix: Self.folder, startAfter: startAfter, maxKeys: min(skip, Self.maximumPageSize))
                guard let last = listing.entries.last else {
                    return FeedPage(entries: [], page: number, size: size, next: nil)
                }
                skip -= listing.entries.count
                startAfter = last.key
                if !listing.isTruncated && skip > 0 { return FeedPage(entries: [], page: number, size: size, next: nil) }
            }
            var result = try read(startAfter: startAfter, size: size)
            result.page = number
            return result
        } catch {
            throw Self.listingError(error)
        }
    }

    /// A post's metadata, for fetching its video.
    package func metadata(id: String) throws(RecorderError) -> PostMetadata {
        guard PostID.isValid(id) else {
            throw .feed(.notAPostID(id))
        }
        let bytes: [UInt8]?
        do throws(StorageError) {
            bytes = try store.read(key: PostMetadata.metadataKey(id: id), limit: 1 << 20)
        } catch {
            throw .feed(.cannotRead(id: id, error))
        }
        guard let bytes else { throw .feed(.notInStore(id: id, store: store.location)) }
        do throws(RecorderError) {
            let metadata = try PostMetadata.decode(Data(bytes))
            guard metadata.id == id, PostID.isValid(metadata.id), metadata.sha256.count == 64,
                  metadata.sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw .feed(.metadataDamaged(id: id, key: PostMetadata.metadataKey(id: id)))
            }
            return metadata.trusted(in: store)
        } catch {
            throw .feed(.metadataDamaged(id: id, key: PostMetadata.metadataKey(id: id)))
        }
    }

    /// The `size` posts after the post `id` (the `next` of the page before). Stable while new
    /// posts arrive: they sort before it.
    /// Calls `body` with each post created at or after `since`, newest first, reading the feed a
    /// hundred at a time. A post whose creation time cannot be read is put in `unreadable` (id: why).
    package func forEachPost(since: Date, unreadable: inout [String: RecorderError],
                             _ body: (FeedEntry) throws(RecorderError) -> Void) throws(RecorderError) {
        var page = try page(1, size: 100)
        while true {
            for entry in page.entries {
                guard let created = RFC3339.date(entry.createdAt) else {
                    unreadable[entry.id] = .feed(.unreadableEntry(id: entry.id, problem: entry.problem))
                    continue
                }
                if created < since { return }
                try body(entry)
            }
            guard let next = page.next else { return }
            page = try self.page(after: next, size: 100)
        }
    }

    package func page(after id: String, size: Int) throws(RecorderError) -> FeedPage {
        let size = try Self.checkSize(size)
        // The cursor's key needs its creation time: from its own metadata.
        let metadata = try metadata(id: id)
        do throws(StorageError) {
            return try read(startAfter: Self.indexKey(metadata), size: size)
        } catch {
            throw Self.listingError(error)
        }
    }

    private func read(startAfter: String?, size: Int) throws(StorageError) -> FeedPage {
        let listing = try store.list(prefix: Self.folder, startAfter: startAfter, maxKeys: size)
        let ids = listing.entries.compactMap { Self.id(inIndexKey: $0.key) }
        let entries = try entries(ids: ids)
        return FeedPage(entries: entries, page: nil, size: size, next: listing.isTruncated ? ids.last : nil)
    }

    /// The entries of posts `ids`, in that order: their metadata read 8 at a time (an S3 store: on
    /// this thread, through libcurl's multi interface).
    func entries(ids: [String]) throws(StorageError) -> [FeedEntry] {
        var entries = [FeedEntry?](repeating: nil, count: ids.count)
        try store.read(keys: ids.map { PostMetadata.metadataKey(id: $0) }, limit: Self.metadataLimit, width: 8) { index, outcome throws(StorageError) in
            entries[index] = try entry(id: ids[index], metadata: outcome)
        }
        return entries.map { $0! }
    }

    /// A post's entry from its metadata; a missing or damaged document is an entry that says so.
    package func entry(id: String) throws(StorageError) -> FeedEntry {
        let outcome: Result<[UInt8]?, StorageError>
        do throws(StorageError) {
            outcome = .success(try store.read(key: PostMetadata.metadataKey(id: id), limit: Self.metadataLimit))
        } catch {
            outcome = .failure(error)
        }
        return try entry(id: id, metadata: outcome)
    }

    /// The most a post's metadata document may hold.
    private static let metadataLimit = 1 << 20

    /// A post's entry from the outcome of reading its metadata: a document too large is damaged;
    /// any other failure to read it is thrown.
    private func entry(id: String, metadata outcome: Result<[UInt8]?, StorageError>) throws(StorageError) -> FeedEntry {
        var entry = FeedEntry(id: id, caption: "", createdAt: "", problem: nil)
        let bytes: [UInt8]?
        do {
            bytes = try outcome.get()
        } catch let error where error.kind == .mismatch {
            entry.problem = .metadataTooLarge(limit: Self.metadataLimit)
            return entry
        }
        guard let bytes else {
            entry.problem = .metadataMissing(key: PostMetadata.metadataKey(id: id))
            return entry
        }
        do throws(RecorderError) {
            let metadata = try PostMetadata.decode(Data(bytes))
            entry.caption = String(metadata.caption.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            entry.prompt = metadata.prompt.map { String($0.prefix(Prompts.maximumLength)) }
            entry.kiosk = metadata.kiosk.flatMap { KioskID.isValid($0) ? $0 : nil }
            entry.createdAt = metadata.createdAt
            entry.durationSeconds = metadata.durationSeconds
            entry.byteSize = metadata.byteSize
            entry.author = metadata.author.name
            entry.sha256 = metadata.sha256
            (entry.shareURL, entry.shareExpiresAt) = (metadata.shareURL, metadata.shareExpiresAt)
            if metadata.id != id { entry.problem = .metadataNamesAnotherPost(id: metadata.id) }
            // Where the poster is comes from the id, never from the document.
            if metadata.thumbnailKey != nil {
                let key = PostMetadata.thumbnailKey(id: id)
                (entry.thumbnailKey, entry.thumbnailURL) = (key, store.url(forKey: key))
            }
        } catch {
            entry.problem = .metadataNotAPost
        }
        return entry
    }

    /// What `reindex` did.
    package struct ReindexReport: Sendable, Encodable, Equatable {
        package var posts = 0
        package var added = 0
        package var damaged: [String] = []
        /// Posters made for posts that had none, and the posts none could be made for (with why).
        package var posters = 0
        package var noPoster: [String: RecorderError] = [:]
    }

    /// Lists every post's metadata once and writes the index objects that are missing (posts
    /// uploaded before the feed existed). A damaged document is indexed by its store time and
    /// shown as damaged. A hidden post stays hidden. Then makes the posters posts lack (`poster`).
    package func reindex(poster: PosterMaker) throws(RecorderError) -> ReindexReport {
        var report = ReindexReport()
        do throws(StorageError) {
            let existing = try indexedIDs(in: Self.folder).union(indexedIDs(in: Self.hiddenFolder))
            var after: String?
            repeat {
                let listing = try store.list(prefix: "posts/", startAfter: after, maxKeys: Self.maximumPageSize)
                let missing = listing.entries.compactMap { item -> ObjectListing.Entry? in
                    guard item.key.hasSuffix(".json") else { return nil }
                    let id = String(item.key.dropFirst("posts/".count).dropLast(5))
                    return PostID.isValid(id) && !existing.contains(id) ? item : nil
                }
                report.posts += listing.entries.count
                // Every missing post's metadata, then every index object, 8 requests at a time.
                let ids = missing.map { String($0.key.dropFirst("posts/".count).dropLast(5)) }
                let found = try entries(ids: ids)
                var objects: [(bytes: [UInt8], key: String)] = []
                for (item, entry) in zip(missing, found) {
                    objects.append(try Self.indexObject(id: entry.id, createdAt: entry.createdAt, kiosk: entry.kiosk, fallbackSeconds: item.lastModified))
                }
                try store.write(objects, contentType: "application/json", width: 8)
                report.added += missing.count
                report.damaged += found.filter { $0.problem != nil }.map(\.id)
                after = listing.isTruncated ? listing.entries.last?.key : nil
            } while after != nil
        } catch {
            throw Self.listingError(error)
        }
        let posters = try makeMissingPosters(poster: poster)
        (report.posters, report.noPoster) = (posters.made, posters.failed)
        return report
    }

    static func checkSize(_ size: Int) throws(RecorderError) -> Int {
        guard (1...maximumPageSize).contains(size) else {
            throw .feed(.pageSizeOutOfRange(size, maximum: maximumPageSize))
        }
        return size
    }

    package static func listingError(_ error: StorageError) -> RecorderError {
        .feed(.cannotList(error))
    }
}
