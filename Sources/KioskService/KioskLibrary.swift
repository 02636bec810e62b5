import FoundationEssentials
import HTTPTypes
import RecorderCore
import StorageUpload
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

    package init(store: any StorageBackend, cache: VideoCache) {
        feed = PostFeed(store: store)
        self.cache = cache
    }

    /// Gallery page `number` (1 = newest).
    func page(_ number: Int) async throws(APIError) -> FeedPage {
        try await offPool { () throws(RecorderError) in try self.feed.page(number, size: Self.pageSize) }
    }

    /// A posted video, checked and cached. A hidden post's is not played.
    func video(id: String) async throws(APIError) -> VideoCache.Video {
        try await offPool { () throws(RecorderError) in
            let metadata = try self.feed.metadata(id: id)
            guard !self.feed.isHidden(metadata) else {
                throw RecorderError("post \(id) is hidden by the operator.", exitStatus: .noInput)
            }
            return try self.cache.video(for: metadata, from: self.feed.store)
        }
    }

    /// The operator takes post `id` out of the gallery (it stays in the store).
    func hide(id: String) async throws(APIError) {
        try await offPool { () throws(RecorderError) in
            try self.feed.hide(id: id)
            self.cache.remove(url: self.feed.store.url(forKey: PostMetadata.videoKey(id: id)))
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
            self.cache.remove(url: self.feed.store.url(forKey: PostMetadata.videoKey(id: id)))
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
            if error.exitStatus == .tempFail { throw APIError(.serviceUnavailable, error.text(.configuration), exitStatus: .tempFail, guestKey: GuestWording.key(for: error)) }
            throw APIError(error)
        }
    }
}
