package import FoundationEssentials
package import Publishing
package import Settings
package import Failures
import Glibc
import StorageUpload
import StoreValues
import SystemSupport

/// The store's host galleries (`Gallery`): made, listed and revoked by `recorder gallery` and the
/// operator page, opened by any share server. Every answer comes from the store: the gallery's
/// object, the feed's index keys (which posts are in its window, not hidden, not deleted) and each
/// post's metadata; nothing is kept between requests, so every server answers alike.
package struct Galleries: Sendable {
    package let feed: PostFeed
    /// `retention.days`: a post expired under it is in no gallery, and a gallery ends with its window's
    /// last post.
    package let retention: Retention?

    package init(feed: PostFeed, retention: Retention?) {
        self.feed = feed
        self.retention = retention
    }

    private var store: any StorageBackend { feed.store }

    /// Makes a gallery of the posts made from `since` (default: a day before `now`) to `until`
    /// (default: `now`) by `kiosks` (none: every booth), open for `expiresDays` (nil: until
    /// retention ends it), with `reel` (a file) shown first; writes it (and the reel) to the store.
    package func create(event: String, since: Date?, until: Date?, kiosks: [String], expiresDays: Int?, reel: String?,
                        now: Date) throws(RecorderError) -> Gallery {
        let event = try Self.checkedEvent(event)
        let until = until ?? now
        let since = since ?? until.addingTimeInterval(-86_400)
        guard since < until else { throw .gallery(.emptyWindow(since: RFC3339.string(since), until: RFC3339.string(until))) }
        for kiosk in kiosks where !KioskID.isValid(kiosk) { throw .gallery(.badKioskID(kiosk)) }
        if let days = expiresDays, !(1...Gallery.maximumExpiryDays).contains(days) {
            throw .gallery(.expiresOutOfRange(days, limit: Gallery.maximumExpiryDays))
        }
        var gallery = Gallery(token: ShareToken.random(), event: event, since: RFC3339.string(since), until: RFC3339.string(until),
                              kiosks: kiosks.isEmpty ? nil : Array(Set(kiosks)).sorted(), createdAt: RFC3339.string(now),
                              expiresAt: expiresDays.map { RFC3339.string(now.addingTimeInterval(Double($0) * 86_400)) })
        if let reel {
            gallery.reel = try upload(reel: reel, token: gallery.token)
        }
        let document: [UInt8]
        do { document = Array(try Self.encoder.encode(gallery)) } catch {
            throw RecorderError(InternalFailure.cannotEncode(document: .gallery, failure: EncodingFailure(error)))
        }
        do throws(StorageError) {
            try store.write(document, key: Gallery.key(token: gallery.token), contentType: "application/json")
        } catch {
            throw .gallery(.cannotWrite(error))
        }
        return gallery
    }

    /// Every gallery in the store, the newest first (revoked ones are gone; expired ones are listed).
    package func list() throws(RecorderError) -> [Gallery] {
        var keys: [String] = []
        var after: String?
        do throws(StorageError) {
            repeat {
                let listing = try store.list(prefix: Gallery.folder, startAfter: after, maxKeys: PostFeed.maximumPageSize)
                keys += listing.entries.map(\.key).filter { $0.hasSuffix(".json") }
                after = listing.isTruncated ? listing.entries.last?.key : nil
            } while after != nil
        } catch {
            throw .gallery(.cannotRead(error))
        }
        var found: [Gallery] = []
        do throws(StorageError) {
            try store.read(keys: keys, limit: Self.objectLimit, width: 8) { _, outcome throws(StorageError) in
                if let bytes = try outcome.get(), let gallery = Self.decoded(bytes) { found.append(gallery) }
            }
        } catch {
            throw .gallery(.cannotRead(error))
        }
        return found.sorted { $0.createdAt > $1.createdAt }
    }

    /// Removes the gallery whose token `tokenOrLink` is (or ends, as its link does): its link opens
    /// nothing from now on, on every server.
    package func revoke(_ tokenOrLink: String) throws(RecorderError) -> Gallery {
        let token = Self.token(in: tokenOrLink)
        guard let gallery = try read(token: token) else { throw .gallery(.noSuchGallery(token: token, store: store.location)) }
        do throws(StorageError) {
            // The gallery's object last: a revoke cut short is said again and finishes.
            if gallery.reel != nil { try store.delete(key: Gallery.reelKey(token: token)) }
            try store.delete(key: Gallery.key(token: token))
        } catch {
            throw .gallery(.cannotWrite(error))
        }
        return gallery
    }

    /// The gallery link `token` opens at `now`: nil for a wrong token, a revoked gallery and an
    /// expired one alike.
    package func open(token: String, now: Date) throws(RecorderError) -> Gallery? {
        guard ShareToken.isValid(token), let gallery = try read(token: token), ShareToken.equal(gallery.token, token) else { return nil }
        if let end = expiry(of: gallery), end <= now { return nil }
        return gallery
    }

    /// When a gallery stops opening: its `--expires`, or when the last post its window can hold
    /// expires under retention, whichever is first; nil: never.
    package func expiry(of gallery: Gallery) -> Date? {
        let ends = [gallery.expiresAt.flatMap(RFC3339.date), retention.flatMap { $0.expiresAt(createdAt: gallery.until) }]
        return ends.compactMap { $0 }.min()
    }

    /// A page of the gallery's posts, newest first: at most `limit` after the cursor `after` (the
    /// `next` of the page before); a post deleted since it was listed is left out.
    package func page(of gallery: Gallery, after: String?, limit: Int, now: Date) throws(RecorderError) -> (posts: [GalleryPost], next: String?) {
        let cursor = after.flatMap { PostFeed.parts(ofIndexKey: PostFeed.folder + $0) == nil ? nil : PostFeed.folder + $0 }
        let (since, until) = gallery.window
        let listed = try feed.listed(since: since, until: until, after: cursor, limit: limit) { keeps(gallery, $0, now: now) }
        let found = try feed.metadata(ids: listed.posts.map(\.id))
        return (found.compactMap { $0.map(GalleryPost.init) }, listed.next.map { String($0.dropFirst(PostFeed.folder.count)) })
    }

    /// Every post of the gallery at `now`, newest first, with its metadata (for the archive).
    package func posts(of gallery: Gallery, now: Date) throws(RecorderError) -> [PostMetadata] {
        let (since, until) = gallery.window
        let listed = try feed.listed(since: since, until: until, after: nil, limit: .max) { keeps(gallery, $0, now: now) }
        return try feed.metadata(ids: listed.posts.map(\.id)).compactMap { $0 }
    }

    /// Post `id` when it is one of the gallery's at `now` (in its window and booths, listed in the
    /// feed: not hidden, not deleted, not expired); nil otherwise.
    package func post(id: String, of gallery: Gallery, now: Date) throws(RecorderError) -> PostMetadata? {
        guard PostID.isValid(id), let metadata = try feed.metadata(ids: [id]).first ?? nil, let created = RFC3339.date(metadata.createdAt),
              gallery.covers(created: created, kiosk: metadata.kiosk), !expired(metadata.createdAt, now: now) else { return nil }
        let listed = PostFeed.indexKey(id: metadata.id, createdAt: metadata.createdAt, kiosk: metadata.kiosk)
        do throws(StorageError) {
            return try store.stat(key: listed) == nil ? nil : metadata
        } catch {
            throw .gallery(.cannotRead(error))
        }
    }

    private func keeps(_ gallery: Gallery, _ post: PostFeed.Listed, now: Date) -> Bool {
        gallery.covers(created: post.created, kiosk: post.kiosk)
            && !(retention.map { post.created.addingTimeInterval($0.seconds) <= now } ?? false)
    }

    private func expired(_ createdAt: String, now: Date) -> Bool {
        retention.flatMap { $0.expiresAt(createdAt: createdAt) }.map { $0 <= now } ?? false
    }

    private func read(token: String) throws(RecorderError) -> Gallery? {
        guard ShareToken.isValid(token) else { return nil }
        do throws(StorageError) {
            return try store.read(key: Gallery.key(token: token), limit: Self.objectLimit).flatMap(Self.decoded)
        } catch {
            throw .gallery(.cannotRead(error))
        }
    }

    /// The reel at `path` stored under the gallery's reel key, with its size and sums.
    private func upload(reel path: String, token: String) throws(RecorderError) -> Gallery.Reel {
        do throws(Descriptors.Errno) {
            Posix.closeAfterUse(try Posix.open(path, O_RDONLY | O_CLOEXEC))
        } catch {
            throw .gallery(.reelUnreadable(path: path, errno: error.code))
        }
        do throws(StorageError) {
            let digest = try FileDigest.compute(path: path, partSize: store.partSize(forSize: FileSystem.size(of: path) ?? 0))
            try store.upload(path: path, key: Gallery.reelKey(token: token), contentType: "video/mp4", digest: digest,
                             journal: FilePaths.directory(of: path) + "/.recorder-reel-upload-\(token)")
            return Gallery.Reel(size: digest.size, sha256: digest.sha256, crc32: CRC32.hex(digest.crc32 ?? 0))
        } catch {
            throw .gallery(.cannotWrite(error))
        }
    }

    /// The token a gallery's link ends with, or the text itself.
    package static func token(in tokenOrLink: String) -> String {
        var text = tokenOrLink.trimmed()
        while text.hasSuffix("/") { text.removeLast() }
        return text.split(separator: "/").last.map(String.init) ?? text
    }

    /// The event's name, or why it cannot be one.
    static func checkedEvent(_ event: String) throws(RecorderError) -> String {
        let name = event.trimmed()
        guard !name.isEmpty, name.count <= Gallery.maximumEventLength,
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) else {
            throw .gallery(.badEventName(event, limit: Gallery.maximumEventLength))
        }
        return name
    }

    private static let objectLimit = 64 << 10

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A gallery object as read from the store, believed only in what has its form.
    static func decoded(_ bytes: [UInt8]) -> Gallery? {
        guard let gallery = try? JSONDecoder().decode(Gallery.self, from: Data(bytes)), ShareToken.isValid(gallery.token),
              (try? checkedEvent(gallery.event)) != nil, RFC3339.date(gallery.since) != nil, RFC3339.date(gallery.until) != nil else { return nil }
        var trusted = gallery
        trusted.kiosks = gallery.kiosks?.filter(KioskID.isValid)
        if let reel = gallery.reel, reel.sha256.count != 64 || CRC32.value(hex: reel.crc32) == nil { trusted.reel = nil }
        return trusted
    }
}
