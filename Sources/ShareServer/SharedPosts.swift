package import FoundationEssentials
package import Publishing
package import Library
package import Settings
package import SystemSupport
package import Failures

/// The posts guests' share links open, from the store (and on a booth, from its own outbox while a
/// post waits there): what the share page, its video, its poster and the guest's delete need, for
/// the kiosk and `recorder serve` alike. Store requests and cache files block, and a video fetched
/// from the store can take long: they run on a pool of their own (`recorder-store`), never on the
/// cooperative pool.
package final class SharedPosts: Sendable {
    /// The store's own threads: four fetches at once, whatever the other blocking work does.
    package static let storeWork = BlockingWork(name: "recorder-store", threads: 4)

    package let feed: PostFeed
    package let cache: VideoCache
    /// Where share links point, and how long they open.
    package let share: ShareLinks
    /// Share tokens to post ids (`post(token:)`).
    package let tokens = ShareTokenIndex()
    /// A booth's outbox: a post queued there opens from its own copy until the store has it, so a
    /// guest's link works at once, at a venue with no internet too. Nil on a share server.
    package let outbox: Outbox?
    /// Which phone a booth gave each post's delete claim (`kiosk.state_dir/claims`); nil on a share
    /// server, which only checks a claim against the hash in the post's metadata.
    package let claims: ShareClaims?
    /// The host's maker of a boomerang's GIF; nil: none is made (no GIF link, and loop.gif opens nothing).
    private let gifMaker: LoopGIFMaker?
    /// Told of each post deleted here (the operator's delete, a guest's from their phone): on a
    /// booth, the shot it came from says so (`PostEnqueuer.postDeleted`).
    private let deleted: @Sendable (String) -> Void
    /// What the links' expiries are judged by (a `TestClock` in tests).
    private let clock: any RecorderClock

    /// Makes a boomerang's animated GIF from post `metadata`'s video (the copy `queued` in a booth's
    /// outbox, else the cache's of `store`'s) and keeps it in `cache`, returning its path; blocks
    /// while it is made. The host hands it in (Posting's `VideoCache.loopGIF`): this module encodes
    /// nothing.
    package typealias LoopGIFMaker = @Sendable (_ cache: VideoCache, _ metadata: PostMetadata, _ queued: String?,
                                                _ store: PostStore) throws(RecorderError) -> String

    package init(store: PostStore, cache: VideoCache, share: ShareLinks, outbox: Outbox? = nil, claims: ShareClaims? = nil,
                 loopGIF: LoopGIFMaker? = nil, deleted: @escaping @Sendable (String) -> Void = { _ in },
                 clock: any RecorderClock = .system) {
        feed = PostFeed(store: store)
        self.cache = cache
        self.share = share
        self.outbox = outbox
        self.claims = claims
        gifMaker = loopGIF
        self.deleted = deleted
        self.clock = clock
        // The tokens of the posts whose links can still open, learnt once, in the background:
        // those still queued here first (they need no store), then the store's.
        Self.storeWork.submit { [self] in
            for item in outbox?.items() ?? [] { self.tokens.learn(token: item.metadata.shareToken, id: item.metadata.id) }
            self.learnTokens(newerThan: clock.date.addingTimeInterval(-Double(share.expiresSeconds)))
        }
    }

    /// A post a share link opens, and where its video is.
    package struct SharedPost: Sendable {
        package let metadata: PostMetadata
        /// The video of the queued copy, while the post waits in this booth's outbox; nil: the
        /// store's (through the cache).
        package let queuedVideo: String?
        /// The queued copy's poster, once the uploader made it (its first attempt); nil: none yet,
        /// or the store's (`metadata.thumbnailKey`).
        package var queuedPoster: String? = nil
        /// The queued copy of the take its effect was made from; nil: the store's (`metadata.original`).
        package var queuedOriginal: String? = nil

        /// A boomerang was made: the page offers it as a loop and a GIF.
        package var isLoop: Bool { metadata.isBoomerang }

        /// Where its page's player takes its poster from, if it has one: the queued copy's, or the store's.
        package var hasPoster: Bool { queuedVideo == nil ? metadata.thumbnailKey != nil : queuedPoster != nil }
    }

    /// The post a share link's `token` opens: one queued here, or one that is listed (not hidden,
    /// not deleted), whose link has not expired. Nil for anything else, a wrong token, a removed
    /// post or an expired link alike, so an answer tells nothing more.
    package func post(token: String, now: Date = Date()) async -> SharedPost? {
        guard ShareToken.isValid(token) else { return nil }
        return await Self.storeWork.run { () -> SharedPost? in
            if let metadata = self.lookUp(token, now: now) { return metadata }
            // Not known: a post a booth just sent? Only the newest are read, at most every 30 s.
            guard self.tokens.id(forToken: token) == nil, self.tokens.refreshDue() else { return nil }
            self.learnTokens(newest: 100)
            return self.lookUp(token, now: now)
        }
    }

    /// When a post's share page stops opening: its link's expiry, or for a post sent without one
    /// (by `recorder post`), share.expires_hours after it was made; never after the post expires
    /// under retention.days (whatever the metadata in the store says).
    package func expiry(_ metadata: PostMetadata) -> Date {
        let created = RFC3339.date(metadata.createdAt) ?? clock.date
        var end = metadata.shareExpiresAt.flatMap(RFC3339.date) ?? created.addingTimeInterval(Double(share.expiresSeconds))
        if let retention = share.retention { end = min(end, created.addingTimeInterval(retention.seconds)) }
        return end
    }

    private func lookUp(_ token: String, now: Date) -> SharedPost? {
        let known = tokens.id(forToken: token)
        // Queued here: the store is not asked (at a venue with no internet it would not answer).
        if let id = known, let item = outbox?.item(id: id) {
            guard let stored = item.metadata.shareToken, ShareToken.equal(stored, token), expiry(item.metadata) > now else { return nil }
            return SharedPost(metadata: item.metadata, queuedVideo: item.videoPath,
                              queuedPoster: FileSystem.status(of: item.posterPath) == nil ? nil : item.posterPath,
                              queuedOriginal: item.metadata.original == nil ? nil : item.originalPath)
        }
        // Every other token costs the store the same, whatever it opens or why it opens nothing
        // (unknown or deleted, hidden, expired): one post's metadata read and its hidden marker
        // asked, a post the index knows standing in for a token it does not know. (Hidden and
        // expired links answered 40-60% slower than unknown and deleted ones, which told why.)
        let asked = known ?? tokens.standIn ?? ""
        let metadata = try? feed.metadata(id: asked)
        let hidden = metadata.map(feed.isHidden) ?? feed.isHidden(id: asked)
        let matches = metadata?.shareToken.map { ShareToken.equal($0, token) } ?? false
        let open = metadata.map { expiry($0) > now } ?? false
        guard known != nil, let metadata, matches, open, !hidden else { return nil }
        return SharedPost(metadata: metadata, queuedVideo: nil)
    }

    /// Learns the tokens of the feed's posts newest first, reading only posts not read before,
    /// until one older than `newerThan` or `newest` posts.
    package func learnTokens(newerThan oldest: Date? = nil, newest limit: Int = .max) {
        var seen = 0
        var page = try? feed.page(1, size: min(100, limit))
        while let current = page {
            for entry in current.entries {
                seen += 1
                if let oldest, let created = RFC3339.date(entry.createdAt), created < oldest { return }
                guard !tokens.isKnown(entry.id) else { continue }
                if let metadata = try? feed.metadata(id: entry.id) { tokens.learn(token: metadata.shareToken, id: entry.id) }
            }
            guard seen < limit else { return }
            page = current.next.flatMap { try? feed.page(after: $0, size: 100) }
        }
    }

    /// A post for playback: from the cache at once, or arriving from the store, its fetch running
    /// on the store's pool (to the end, so the cache gets it even if the viewer leaves) while the
    /// caller streams what has come.
    package func playback(_ metadata: PostMetadata) -> VideoCache.Lookup {
        cache.lookUp(metadata, from: feed.store) { fetch in Self.storeWork.submit(fetch) }
    }

    /// The take a shared post's effect was made from, for playback (nil when it has none).
    package func playbackOriginal(_ metadata: PostMetadata) -> VideoCache.Lookup? {
        metadata.original.map { original in cache.lookUp(original, from: feed.store) { fetch in Self.storeWork.submit(fetch) } }
    }

    /// Whether a boomerang's GIF is made here (the host handed in its maker).
    package var makesGIFs: Bool { gifMaker != nil }

    /// A shared boomerang's GIF, made on the first request from its video (the queued copy, or
    /// the cache's) and kept in the cache; nil where none is made (`makesGIFs`).
    package func loopGIF(_ shared: SharedPost) async throws(RecorderError) -> String? {
        guard let gifMaker else { return nil }
        return try await Self.storeWork.run { () throws(RecorderError) -> String in
            try gifMaker(self.cache, shared.metadata, shared.queuedVideo, self.feed.store)
        }
    }

    /// A post's poster from the store (`thumbs/<id>.jpg`, read whole); nil when it has none or it
    /// cannot be read now.
    package func poster(of metadata: PostMetadata) async -> [UInt8]? {
        await Self.storeWork.run { try? self.feed.poster(of: metadata) }
    }

    /// Whether `secret` (the phone's `recorder_delete` cookie) is the post's delete claim: the hash
    /// the booth put in its metadata (any server can tell), or, for a post from before that, the
    /// one this booth kept.
    package func holdsClaim(_ metadata: PostMetadata, secret: String?) async -> Bool {
        guard let secret, !secret.isEmpty else { return false }
        if let hash = metadata.deleteClaim { return ShareToken.equal(ShareClaims.hash(secret), hash) }
        guard let claims else { return false }
        return await Self.storeWork.run { claims.holds(metadata.id, secret: secret) }
    }

    /// Gives post `id`'s delete claim to the phone opening its link now (see `ShareClaims`): its
    /// secret, or nil when a phone had it before; a claim that cannot be kept is thrown.
    package func claim(_ id: String) async throws(FileSystem.Failure) -> String? {
        guard let claims else { return nil }
        return try await Self.storeWork.run { () throws(FileSystem.Failure) -> String? in try claims.claim(id) }
    }

    /// Deletes post `id` from the store (and the cache), or, while it still waits in this booth's
    /// outbox, from the outbox: it is never sent. (A post being sent right now holds the outbox:
    /// busy, try again.) Its guests' mail goes first: a mail waiting is never sent, and an address
    /// kept under the consent text is forgotten.
    package func delete(id: String) async throws(RecorderError) {
        try await Self.storeWork.run { () throws(RecorderError) in
            if let outbox = self.outbox { MailQueue(outboxRoot: outbox.root).forget(postID: id) }
            if try self.outbox?.withdraw(id: id) != true { try self.feed.delete(id: id) }
            self.forgetDeleted(id)
            self.deleted(id)
        }
    }

    /// A post left the store: its share token, its delete claim and its cached video go too.
    package func forgetDeleted(_ id: String) {
        tokens.forget(id: id)
        claims?.forget(id)
        cache.remove(url: feed.videoURL(id: id))
    }
}
