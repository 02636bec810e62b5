import FoundationEssentials
import HTTPTypes
import Synchronization
import Settings
package import Publishing
package import Library
import SystemSupport
import KioskWords
import KioskHTTP
import KioskState
package import Failures

/// The kiosk's gallery: pages of the feed and posted videos through the cache. Store requests and
/// cache files block, and a video fetched from the store can take long: they run on a pool of their
/// own (`recorder-store`), never on the cooperative pool, and never ahead of a status request.
package final class KioskLibrary: Sendable {
    /// The gallery's own threads: four fetches at once, whatever the other blocking work does.
    static let storeWork = BlockingWork(name: "recorder-store", threads: 4)

    /// Posts per gallery page.
    package static let pageSize = 12
    let feed: PostFeed
    let cache: VideoCache
    /// Where share links point (the kiosk's share page among them).
    let share: ShareLinks
    /// Share tokens to post ids (`sharedPost(token:)`).
    let shareTokens = ShareTokenIndex()
    /// This kiosk's outbox: a post queued here opens from its own copy until the store has it, so
    /// a guest's link works at once, at a venue with no internet too.
    let outbox: Outbox?
    /// Which phone may delete each shared post (in `kiosk.state_dir/claims`); nil: none may.
    let claims: ShareClaims?

    package init(store: PostStore, cache: VideoCache, share: ShareLinks = ShareLinks(), outbox: Outbox? = nil,
                 claimsDirectory: String? = nil) {
        feed = PostFeed(store: store)
        self.cache = cache
        self.share = share
        self.outbox = outbox
        claims = claimsDirectory.map(ShareClaims.init)
        // The tokens of the posts whose links can still open, learnt once, in the background:
        // those still queued here first (they need no store), then the store's.
        Self.storeWork.submit { [self] in
            for item in outbox?.items() ?? [] { self.shareTokens.learn(token: item.metadata.shareToken, id: item.metadata.id) }
            self.learnTokens(newerThan: Date().addingTimeInterval(-Double(share.expiresSeconds)))
        }
    }

    /// Gallery page `number` (1 = newest), with every share link checked (`shown(_:)`).
    func page(_ number: Int) async throws(APIError) -> FeedPage {
        var page = try await offPool { () throws(RecorderError) in try self.feed.page(number, size: Self.pageSize) }
        for index in page.entries.indices where page.entries[index].shareURL.map({ !share.isOurs($0, store: feed.store) }) == true {
            (page.entries[index].shareURL, page.entries[index].shareExpiresAt) = (nil, nil)
        }
        return page
    }

    /// A post's poster (`thumbs/<id>.jpg`, a small JPEG, read whole); a hidden post's is not shown.
    func poster(id: String) async throws(APIError) -> [UInt8] {
        try await offPool { () throws(RecorderError) -> [UInt8] in
            let metadata = try self.feed.metadata(id: id)
            guard !self.feed.isHidden(metadata) else {
                throw .kiosk(.hidden(id: id))
            }
            guard let bytes = try self.feed.poster(of: metadata) else { throw .kiosk(.noPoster(id: id)) }
            return bytes
        }
    }

    /// A posted video for playback: from the cache at once, or arriving from the store, its fetch
    /// running on the store's pool (to the end, so the cache gets it even if the viewer leaves)
    /// while the caller streams what has come.
    func playback(id: String) async throws(APIError) -> VideoCache.Lookup {
        let metadata = try await offPool { () throws(RecorderError) -> PostMetadata in
            let metadata = try self.feed.metadata(id: id)
            guard !self.feed.isHidden(metadata) else {
                throw .kiosk(.hidden(id: id))
            }
            return metadata
        }
        return playback(metadata)
    }

    func playback(_ metadata: PostMetadata) -> VideoCache.Lookup {
        cache.lookUp(metadata, from: feed.store) { fetch in Self.storeWork.submit(fetch) }
    }

    /// The operator takes post `id` out of the gallery (it stays in the store).
    func hide(id: String) async throws(APIError) {
        try await offPool { () throws(RecorderError) in
            try self.feed.hide(id: id)
            self.dropCachedVideo(of: id)
        }
    }

    /// The operator puts a hidden post back in the gallery.
    func show(id: String) async throws(APIError) {
        try await offPool { () throws(RecorderError) in try self.feed.show(id: id) }
    }

    /// Deletes post `id` from the store (and the cache), or, while it still waits in this kiosk's
    /// outbox, from the outbox: it is never sent. (A post being sent right now holds the outbox:
    /// busy, try again.) Its guests' mail goes first: a mail waiting is never sent, and an address
    /// kept under the consent text is forgotten.
    func delete(id: String) async throws(APIError) {
        try await offPool { () throws(RecorderError) in
            if let outbox = self.outbox { MailQueue(outboxRoot: outbox.root).forget(postID: id) }
            if try self.outbox?.withdraw(id: id) != true { try self.feed.delete(id: id) }
            self.forgetDeleted(id)
        }
    }

    /// A post left the store: its share token, its delete claim and its cached video go too.
    private func forgetDeleted(_ id: String) {
        shareTokens.forget(id: id)
        claims?.forget(id)
        dropCachedVideo(of: id)
    }

    /// The cache (memory and disk) no longer plays post `id`'s video.
    private func dropCachedVideo(of id: String) {
        cache.remove(url: feed.videoURL(id: id))
    }

    /// Deletes this kiosk's posts (`scope`) older than `retention.days` from the store (the kiosk's
    /// hourly timer), each also from the cache, the share tokens and the claims; what could not be
    /// deleted is in the report and is tried again next time. Nothing is deleted while the clock is
    /// in doubt (behind the newest post, before this version was made, or not synchronised as
    /// `timedatectl` tells): the report says why (`refused`).
    func purgeExpired(_ retention: Retention, scope: RetentionScope, now: Date, timedatectl: String) async throws(APIError) -> PurgeReport {
        try await offPool { () throws(RecorderError) -> PurgeReport in
            let cutoff = retention.cutoff(at: now)
            if let doubt = try self.feed.clockDoubt(now: now, synchronised: TimeSync.synchronised(timedatectl: timedatectl)) {
                var report = PurgeReport(cutoff: RFC3339.string(cutoff), dryRun: false)
                report.refused = doubt
                return report
            }
            return try self.feed.purgeExpired(before: cutoff, scope: scope, dryRun: false, deleted: self.forgetDeleted)
        }
    }

    /// Post `id`'s share link as its metadata has it (ShareLinks made it at upload), or this kiosk's
    /// share page for a post that has a token and no link (sent by `recorder post`); nil when there
    /// is none.
    func share(id: String) async throws(APIError) -> (url: String, expiresAt: String?)? {
        try await offPool { () throws(RecorderError) -> (url: String, expiresAt: String?)? in
            // Still queued here: its link is shown at once when it opens a share page this kiosk
            // serves (its own, or share.base_url's {token}); a link to the video itself waits for
            // the upload.
            if let item = self.outbox?.item(id: id), let link = self.pageLink(item.metadata) { return link }
            let metadata = try self.feed.metadata(id: id)
            guard !self.feed.isHidden(metadata) else { throw .kiosk(.hidden(id: id)) }
            self.shareTokens.learn(token: metadata.shareToken, id: id)
            // A link from the store is shown only if it points where this kiosk's links point;
            // anything else (a store others can write to) is made anew.
            if let url = metadata.shareURL, self.share.isOurs(url, store: self.feed.store) { return (url, metadata.shareExpiresAt) }
            guard let link = self.share.link(id: id, key: PostMetadata.videoKey(id: id), token: metadata.shareToken, store: self.feed.store,
                                              createdAt: metadata.createdAt) else { return nil }
            // This kiosk's own page opens for share.expires_hours from the post's making.
            if let base = self.share.pageBase, link.url.hasPrefix(base + "/s/") { return (link.url, RFC3339.string(self.shareExpiry(metadata))) }
            return link
        }
    }

    /// Whether a queued post's link opens only once it is in the store (a presigned link, a
    /// CDN's): not a share page this kiosk serves from the queued copy.
    func linkWaitsForUpload(_ metadata: PostMetadata) -> Bool {
        pageLink(metadata) == nil
    }

    /// `metadata`'s link when it opens a share page this kiosk serves (share.base_url with
    /// {token}, or its own page), with its expiry; nil for a link to the video itself.
    private func pageLink(_ metadata: PostMetadata) -> (url: String, expiresAt: String?)? {
        guard let link = share.link(id: metadata.id, key: PostMetadata.videoKey(id: metadata.id), token: metadata.shareToken,
                                    store: feed.store, createdAt: metadata.createdAt),
              share.baseURL?.contains("{token}") == true || share.pageBase.map({ link.url.hasPrefix($0 + "/s/") }) == true else { return nil }
        return (link.url, RFC3339.string(shareExpiry(metadata)))
    }

    /// A post a share link opens, and where its video is.
    struct SharedPost: Sendable {
        let metadata: PostMetadata
        /// The video of the queued copy, while the post waits in this kiosk's outbox; nil: the
        /// store's (through the cache).
        let queuedVideo: String?
        /// The queued copy's poster, once the uploader made it (its first attempt); nil: none yet,
        /// or the store's (`metadata.thumbnailKey`).
        var queuedPoster: String? = nil

        /// Where its page's player takes its poster from, if it has one: the queued copy's, or the store's.
        var hasPoster: Bool { queuedVideo == nil ? metadata.thumbnailKey != nil : queuedPoster != nil }
    }

    /// The post a share link's `token` opens: one queued here, or one that is listed (not hidden,
    /// not deleted), whose link has not expired. Nil for anything else, a wrong token, a removed
    /// post or an expired link alike, so an answer tells nothing more.
    func sharedPost(token: String, now: Date = Date()) async -> SharedPost? {
        guard ShareToken.isValid(token) else { return nil }
        return await Self.storeWork.run { () -> SharedPost? in
            if let metadata = self.lookUp(token, now: now) { return metadata }
            // Not known: a post another kiosk just sent? Only the newest are read, at most every 30 s.
            guard self.shareTokens.id(forToken: token) == nil, self.shareTokens.refreshDue() else { return nil }
            self.learnTokens(newest: 100)
            return self.lookUp(token, now: now)
        }
    }

    /// When a post's share page stops opening: its link's expiry, or for a post sent without one
    /// (by `recorder post`), share.expires_hours after it was made; never after the post expires
    /// under retention.days (whatever the metadata in the store says).
    func shareExpiry(_ metadata: PostMetadata) -> Date {
        let created = RFC3339.date(metadata.createdAt) ?? Date()
        var end = metadata.shareExpiresAt.flatMap(RFC3339.date) ?? created.addingTimeInterval(Double(share.expiresSeconds))
        if let retention = share.retention { end = min(end, created.addingTimeInterval(retention.seconds)) }
        return end
    }

    private func lookUp(_ token: String, now: Date) -> SharedPost? {
        let known = shareTokens.id(forToken: token)
        // Queued here: the store is not asked (at a venue with no internet it would not answer).
        if let id = known, let item = outbox?.item(id: id) {
            guard let stored = item.metadata.shareToken, ShareToken.equal(stored, token), shareExpiry(item.metadata) > now else { return nil }
            return SharedPost(metadata: item.metadata, queuedVideo: item.videoPath,
                              queuedPoster: FileSystem.status(of: item.posterPath) == nil ? nil : item.posterPath)
        }
        // Every other token costs the store the same, whatever it opens or why it opens nothing
        // (unknown or deleted, hidden, expired): one post's metadata read and its hidden marker
        // asked, a post the index knows standing in for a token it does not know. (Hidden and
        // expired links answered 40-60% slower than unknown and deleted ones, which told why.)
        let asked = known ?? shareTokens.standIn ?? ""
        let metadata = try? feed.metadata(id: asked)
        let hidden = metadata.map(feed.isHidden) ?? feed.isHidden(id: asked)
        let matches = metadata?.shareToken.map { ShareToken.equal($0, token) } ?? false
        let open = metadata.map { shareExpiry($0) > now } ?? false
        guard known != nil, let metadata, matches, open, !hidden else { return nil }
        return SharedPost(metadata: metadata, queuedVideo: nil)
    }

    /// Learns the tokens of the feed's posts newest first, reading only posts not read before,
    /// until one older than `newerThan` or `newest` posts.
    func learnTokens(newerThan oldest: Date? = nil, newest limit: Int = .max) {
        var seen = 0
        var page = try? feed.page(1, size: min(100, limit))
        while let current = page {
            for entry in current.entries {
                seen += 1
                if let oldest, let created = RFC3339.date(entry.createdAt), created < oldest { return }
                guard !shareTokens.isKnown(entry.id) else { continue }
                if let metadata = try? feed.metadata(id: entry.id) { shareTokens.learn(token: metadata.shareToken, id: entry.id) }
            }
            guard seen < limit else { return }
            page = current.next.flatMap { try? feed.page(after: $0, size: 100) }
        }
    }

    /// The hidden posts, newest first (the first 100).
    func hiddenPosts() async throws(APIError) -> [FeedEntry] {
        try await offPool { () throws(RecorderError) in try self.feed.hiddenPosts(size: 100) }
    }

    /// Claims post `id` for the phone opening its link now (see `ShareClaims`): the new secret,
    /// or nil when it was claimed before; a claim that cannot be written is thrown.
    func claim(_ id: String) async throws(FileSystem.Failure) -> String? {
        guard let claims else { return nil }
        return try await Self.storeWork.run { () throws(FileSystem.Failure) -> String? in try claims.claim(id) }
    }

    /// Whether `secret` is post `id`'s delete claim.
    func holdsClaim(_ id: String, secret: String?) async -> Bool {
        guard let claims, secret != nil else { return false }
        return await Self.storeWork.run { claims.holds(id, secret: secret) }
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws(RecorderError) -> T) async throws(APIError) -> T {
        do throws(RecorderError) {
            return try await Self.storeWork.run(work)
        } catch {
            // A store that is down for now is unavailable here, not a conflict.
            if error.kind == .busy { throw APIError(.recorder(.unavailable), error.text(), guestKey: GuestWording.key(for: error)) }
            throw APIError(error)
        }
    }
}
