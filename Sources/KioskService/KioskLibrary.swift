import FoundationEssentials
import HTTPTypes
import Synchronization
import Settings
package import Publishing
package import Library
import SystemSupport

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

    package init(store: PostStore, cache: VideoCache, share: ShareLinks = ShareLinks()) {
        feed = PostFeed(store: store)
        self.cache = cache
        self.share = share
        // The tokens of the posts whose links can still open, learnt once, in the background.
        Self.storeWork.submit { [self] in self.learnTokens(newerThan: Date().addingTimeInterval(-Double(share.expiresSeconds))) }
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
                throw RecorderError("post \(id) is hidden by the operator.", kind: .notFound)
            }
            guard let bytes = try self.feed.poster(of: metadata) else { throw RecorderError("post \(id) has no poster.", kind: .notFound) }
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
                throw RecorderError("post \(id) is hidden by the operator.", kind: .notFound)
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

    /// The operator deletes post `id` from the store (and the cache).
    func delete(id: String) async throws(APIError) {
        try await offPool { () throws(RecorderError) in
            try self.feed.delete(id: id)
            self.forgetDeleted(id)
        }
    }

    /// A post left the store: its share token and cached video go too.
    private func forgetDeleted(_ id: String) {
        shareTokens.forget(id: id)
        dropCachedVideo(of: id)
    }

    /// The cache (memory and disk) no longer plays post `id`'s video.
    private func dropCachedVideo(of id: String) {
        cache.remove(url: feed.videoURL(id: id))
    }

    /// Deletes the posts older than `retention.days` from the store (the kiosk's hourly timer), each
    /// also from the cache and the share tokens; what could not be deleted is in the report and is
    /// tried again next time.
    func purgeExpired(_ retention: Retention, now: Date = Date()) async throws(APIError) -> PurgeReport {
        try await offPool { () throws(RecorderError) -> PurgeReport in
            try self.feed.purgeExpired(before: retention.cutoff(at: now), dryRun: false, deleted: self.forgetDeleted)
        }
    }

    /// Post `id`'s share link as its metadata has it (ShareLinks made it at upload), or this kiosk's
    /// share page for a post that has a token and no link (sent by `recorder post`); nil when there
    /// is none.
    func share(id: String) async throws(APIError) -> (url: String, expiresAt: String?)? {
        try await offPool { () throws(RecorderError) -> (url: String, expiresAt: String?)? in
            let metadata = try self.feed.metadata(id: id)
            guard !self.feed.isHidden(metadata) else { throw RecorderError("post \(id) is hidden by the operator.", kind: .notFound) }
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

    /// The post a share link's `token` opens: one that is listed (not hidden, not deleted) and
    /// whose link has not expired. Nil for anything else, a wrong token, a removed post or an
    /// expired link alike, so an answer tells nothing more.
    func sharedPost(token: String, now: Date = Date()) async -> PostMetadata? {
        guard ShareToken.isValid(token) else { return nil }
        return await Self.storeWork.run { () -> PostMetadata? in
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

    private func lookUp(_ token: String, now: Date) -> PostMetadata? {
        guard let id = shareTokens.id(forToken: token),
              let metadata = try? feed.metadata(id: id), let stored = metadata.shareToken,
              ShareToken.equal(stored, token),
              shareExpiry(metadata) > now, !feed.isHidden(metadata) else { return nil }
        return metadata
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

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws(RecorderError) -> T) async throws(APIError) -> T {
        do throws(RecorderError) {
            return try await Self.storeWork.run(work)
        } catch {
            // A store that is down for now is unavailable here, not a conflict.
            if error.kind == .busy { throw APIError(.serviceUnavailable, error.text(), kind: .busy, guestKey: GuestWording.key(for: error)) }
            throw APIError(error)
        }
    }
}
