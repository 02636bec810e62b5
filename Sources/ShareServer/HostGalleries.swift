package import FoundationEssentials
package import Library
package import Publishing
package import Failures
package import KioskHTTP
import SystemSupport

/// The host's galleries as the share routes reach them: each request opens its gallery from the
/// store (`Galleries`), so a revoked or expired gallery stops at once on every server, and reads
/// what it shows there too, on the store's pool.
package final class HostGalleries: Sendable {
    package let galleries: Galleries
    /// Posts' videos and posters, through the same cache as the share links'.
    let posts: SharedPosts
    /// Posts per page of the gallery (a phone loads the next as it scrolls).
    package static let pageSize = 24

    package init(posts: SharedPosts) {
        self.posts = posts
        galleries = Galleries(feed: posts.feed, retention: posts.share.retention)
    }

    /// The gallery `token` opens now; nil for a wrong, revoked or expired one, or a store that
    /// cannot say (the same answer: nothing).
    func open(_ token: String, now: Date) async -> Gallery? {
        guard ShareToken.isValid(token) else { return nil }
        return await SharedPosts.storeWork.run { try? self.galleries.open(token: token, now: now) }
    }

    func page(of gallery: Gallery, after: String?, now: Date) async throws(APIError) -> (posts: [GalleryPost], next: String?) {
        try await offPool { () throws(RecorderError) in try self.galleries.page(of: gallery, after: after, limit: Self.pageSize, now: now) }
    }

    /// Post `id` when it is one of the gallery's now.
    func post(_ id: String, of gallery: Gallery, now: Date) async -> PostMetadata? {
        await SharedPosts.storeWork.run { try? self.galleries.post(id: id, of: gallery, now: now) }
    }

    /// The gallery's archive as it is now: its posts listed and their metadata read.
    func archive(of gallery: Gallery, now: Date) async throws(APIError) -> PostArchive {
        try await offPool { () throws(RecorderError) in
            try PostArchive(members: PostArchive.members(of: gallery, posts: try self.galleries.posts(of: gallery, now: now)))
        }
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () throws(RecorderError) -> T) async throws(APIError) -> T {
        do throws(RecorderError) {
            return try await SharedPosts.storeWork.run(work)
        } catch {
            throw APIError(error)
        }
    }
}
