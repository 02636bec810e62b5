import FoundationEssentials
import StorageUpload
package import Settings
import StoreValues
package import Failures

/// Moderation: an operator hides a post from the feed (and brings it back), or deletes it from the
/// store for good.
///
/// A hidden post's index object moves from `feed/` to `feed-hidden/` (same name, its record saying
/// `"hidden": true`): pages list `feed/` alone, so a hidden post is never listed, and paging stays
/// one listing per page. Its video and metadata stay in the store.
extension PostFeed {
    package static let hiddenFolder = "feed-hidden/"

    /// Takes post `id` out of the feed (its video and metadata stay). Hiding a hidden post is no error.
    package func hide(id: String) throws(RecorderError) {
        let metadata = try metadata(id: id)
        let visible = Self.indexKey(metadata)
        let hidden = Self.hiddenKey(visible)
        do throws(StorageError) {
            // Written first, removed second: a failure in between leaves the post listed (the
            // operator sees it and tries again), never lost from both.
            try store.write(try Self.record(id: id, createdAt: metadata.createdAt, hidden: true), key: hidden, contentType: "application/json")
            try store.delete(key: visible)
        } catch {
            throw .feed(.cannotHide(id: id, error))
        }
    }

    /// Puts a hidden post `id` back in the feed, where its creation time places it.
    package func show(id: String) throws(RecorderError) {
        let metadata = try metadata(id: id)
        let visible = Self.indexKey(metadata)
        let hidden = Self.hiddenKey(visible)
        do throws(StorageError) {
            try store.write(try Self.record(id: id, createdAt: metadata.createdAt, hidden: false), key: visible, contentType: "application/json")
            try store.delete(key: hidden)
        } catch {
            throw .feed(.cannotShow(id: id, error))
        }
    }

    /// Deletes post `id` from the store: its index objects first (it leaves the feed at once),
    /// then its video, poster and kept sums, then its metadata last (what a repeated delete needs to find the rest).
    /// A post whose metadata is damaged is deleted too: its index objects are then found by
    /// listing the feed.
    package func delete(id: String) throws(RecorderError) {
        guard PostID.isValid(id) else {
            throw .feed(.notAPostID(id))
        }
        var keys: [String]
        do throws(StorageError) {
            var index: [String]
            if let metadata = try? metadata(id: id) {
                let visible = Self.indexKey(metadata)
                index = [visible, Self.hiddenKey(visible)]
            } else {
                index = try indexKeys(of: id, in: Self.folder) + indexKeys(of: id, in: Self.hiddenFolder)
            }
            keys = index + [PostMetadata.videoKey(id: id), PostMetadata.originalKey(id: id), PostMetadata.thumbnailKey(id: id),
                            PostMetadata.sumsKey(id: id), PostMetadata.metadataKey(id: id)]
            if index.isEmpty, try store.stat(key: PostMetadata.metadataKey(id: id)) == nil, try store.stat(key: PostMetadata.videoKey(id: id)) == nil {
                keys = []
            }
        } catch {
            throw .feed(.cannotDelete(id: id, partly: false, error))
        }
        guard !keys.isEmpty else { throw .feed(.nothingToDelete(id: id, store: store.location)) }
        do throws(StorageError) {
            for key in keys { try store.delete(key: key) }
        } catch {
            throw .feed(.cannotDelete(id: id, partly: true, error))
        }
    }

    /// Whether an operator hid the post (its index object is in `feed-hidden/`). One request. A
    /// store that cannot answer counts as hiding it: a post is shown only when the store says it
    /// may be.
    package func isHidden(_ metadata: PostMetadata) -> Bool {
        isHidden(key: Self.indexKey(metadata))
    }

    /// Asks the store for a hidden marker as `isHidden` does, for a post known only by `id` (a share
    /// token's lookup that found no metadata costs the store what one that found it does).
    package func isHidden(id: String) -> Bool {
        isHidden(key: Self.indexKey(id: id, createdAt: "", kiosk: nil))
    }

    private func isHidden(key visible: String) -> Bool {
        do throws(StorageError) {
            return try store.exists(key: Self.hiddenKey(visible))
        } catch {
            return true
        }
    }

    /// The hidden posts, newest first (at most `size`), for the operator to show again or delete.
    package func hiddenPosts(size: Int) throws(RecorderError) -> [FeedEntry] {
        let size = try Self.checkSize(size)
        do throws(StorageError) {
            let listing = try store.list(prefix: Self.hiddenFolder, startAfter: nil, maxKeys: size)
            let ids = listing.entries.compactMap { Self.id(inIndexKey: Self.folder + $0.key.dropFirst(Self.hiddenFolder.count)) }
            return try entries(ids: ids)
        } catch {
            throw Self.listingError(error)
        }
    }

    /// The index objects of post `id` under `folder`, found by listing it whole.
    private func indexKeys(of id: String, in folder: String) throws(StorageError) -> [String] {
        var keys: [String] = []
        var after: String?
        repeat {
            let listing = try store.list(prefix: folder, startAfter: after, maxKeys: Self.maximumPageSize)
            keys += listing.entries.map(\.key).filter { Self.id(inIndexKey: Self.folder + $0.dropFirst(folder.count)) == id }
            after = listing.isTruncated ? listing.entries.last?.key : nil
        } while after != nil
        return keys
    }

    /// The ids with an index object under `folder`, all of them (for `reindex`).
    func indexedIDs(in folder: String) throws(StorageError) -> Set<String> {
        var ids = Set<String>()
        var after: String?
        repeat {
            let listing = try store.list(prefix: folder, startAfter: after, maxKeys: Self.maximumPageSize)
            for entry in listing.entries {
                if let id = Self.id(inIndexKey: Self.folder + entry.key.dropFirst(folder.count)) { ids.insert(id) }
            }
            after = listing.isTruncated ? listing.entries.last?.key : nil
        } while after != nil
        return ids
    }
}
