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
package import ShareServer
package import Failures

/// The kiosk's gallery: pages of the feed and posted videos through the cache. Store requests and
/// cache files block, and a video fetched from the store can take long: they run on a pool of their
/// own (`recorder-store`), never on the cooperative pool, and never ahead of a status request.
package final class KioskLibrary: Sendable {
    /// The store's own threads (`SharedPosts.storeWork`): four fetches at once, whatever the other
    /// blocking work does.
    static var storeWork: BlockingWork { SharedPosts.storeWork }

    /// Posts per gallery page.
    package static let pageSize = 12
    /// What share links open (the share routes' own: this kiosk's outbox and delete claims with them).
    package let shared: SharedPosts
    var feed: PostFeed { shared.feed }
    var cache: VideoCache { shared.cache }
    /// Where share links point (the kiosk's share page among them).
    var share: ShareLinks { shared.share }
    /// Share tokens to post ids (`sharedPost(token:)`).
    var shareTokens: ShareTokenIndex { shared.tokens }
    /// This kiosk's outbox: a post queued here opens from its own copy until the store has it, so
    /// a guest's link works at once, at a venue with no internet too.
    var outbox: Outbox? { shared.outbox }
    /// Which phone may delete each shared post (in `kiosk.state_dir/claims`); nil: none may.
    var claims: ShareClaims? { shared.claims }

    package init(store: PostStore, cache: VideoCache, share: ShareLinks = ShareLinks(), outbox: Outbox? = nil,
                 claimsDirectory: String? = nil, deleted: @escaping @Sendable (String) -> Void = { _ in }) {
        shared = SharedPosts(store: store, cache: cache, share: share, outbox: outbox, claims: claimsDirectory.map(ShareClaims.init),
                             loopGIF: SharedPosts.encodedGIF, deleted: deleted)
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
        shared.playback(metadata)
    }

    /// The operator takes post `id` out of the gallery (it stays in the store).
    func hide(id: String) async throws(APIError) {
        try await offPool { () throws(RecorderError) in
            try self.feed.hide(id: id)
            // (the cache plays it no more)
            self.cache.remove(url: self.feed.videoURL(id: id))
        }
    }

    /// When the feed's first post was made (nil: no post yet).
    func firstPostTime() async throws(APIError) -> Date? {
        try await offPool { () throws(RecorderError) in try self.feed.firstPostTime() }
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
        do throws(RecorderError) {
            try await shared.delete(id: id)
        } catch {
            throw Self.apiError(error)
        }
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
            return try self.feed.purgeExpired(before: cutoff, scope: scope, dryRun: false, deleted: self.shared.forgetDeleted)
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

    /// When a post's share page stops opening (`SharedPosts.expiry`).
    func shareExpiry(_ metadata: PostMetadata) -> Date {
        shared.expiry(metadata)
    }

    /// The hidden posts, newest first (the first 100).
    func hiddenPosts() async throws(APIError) -> [FeedEntry] {
        try await offPool { () throws(RecorderError) in try self.feed.hiddenPosts(size: 100) }
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws(RecorderError) -> T) async throws(APIError) -> T {
        do throws(RecorderError) {
            return try await Self.storeWork.run(work)
        } catch {
            throw Self.apiError(error)
        }
    }

    /// A store that is down for now is unavailable here, not a conflict.
    private static func apiError(_ error: RecorderError) -> APIError {
        if error.kind == .busy { return APIError(.recorder(.unavailable), error.text(), guestKey: GuestWording.key(for: error)) }
        return APIError(error)
    }
}
