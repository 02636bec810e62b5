package import FoundationEssentials
import StorageUpload
import StoreValues
package import Failures
import SystemSupport

/// The feed between two moments, from the index keys alone: each key names when its post was
/// made and by which booth (`feed/<time digits>-<id>-<kiosk>.json`), so a window of an event, a
/// booth's posts, and paging through them cost one listing per thousand posts and no metadata
/// read. Only `feed/` is listed: a hidden post (`feed-hidden/`) and a deleted one are never in it.
extension PostFeed {
    /// A visible post as its index key names it.
    package struct Listed: Sendable, Equatable {
        /// The index key: the cursor to go on after it.
        package var key: String
        package var id: String
        /// The booth that posted it (`kiosk.id`); nil for a post from before kiosks had ids.
        package var kiosk: String?
        /// When it was made, to the second.
        package var created: Date
    }

    /// The visible posts made from `since` to `until` (both included), newest first: at most `limit`
    /// of those `keep` accepts, after the index key `after` when given (the last one of the page
    /// before). `next` is the key to go on after, nil when the window has no more.
    package func listed(since: Date, until: Date, after: String?, limit: Int,
                        keep: (Listed) -> Bool = { _ in true }) throws(RecorderError) -> (posts: [Listed], next: String?) {
        // Keys sort newest first: start after every key of a post made later than `until`.
        var startAfter = Self.folder + Self.timeDigits(until.timeIntervalSince1970.rounded(.down) + 1) + "."
        if let after, after.hasPrefix(Self.folder), after > startAfter { startAfter = after }
        var posts: [Listed] = []
        do throws(StorageError) {
            while true {
                let listing = try store.list(prefix: Self.folder, startAfter: startAfter, maxKeys: Self.maximumPageSize)
                for entry in listing.entries {
                    startAfter = entry.key
                    guard let parts = Self.parts(ofIndexKey: entry.key), let created = Self.creationTime(inIndexKey: entry.key) else { continue }
                    // (keys hold whole seconds: a post of `since`'s own second is in)
                    if created.timeIntervalSince1970 < since.timeIntervalSince1970.rounded(.down) { return (posts, nil) }
                    let post = Listed(key: entry.key, id: parts.id, kiosk: parts.kiosk, created: created)
                    guard keep(post) else { continue }
                    posts.append(post)
                    if posts.count == limit { return (posts, entry.key) }
                }
                guard listing.isTruncated, !listing.entries.isEmpty else { return (posts, nil) }
            }
        } catch {
            throw Self.listingError(error)
        }
    }

    /// The metadata of posts `ids`, in that order, read 8 at a time (nil for one that is missing or
    /// damaged: a post deleted meanwhile).
    package func metadata(ids: [String]) throws(RecorderError) -> [PostMetadata?] {
        var found = [PostMetadata?](repeating: nil, count: ids.count)
        do throws(StorageError) {
            try store.read(keys: ids.map { PostMetadata.metadataKey(id: $0) }, limit: 1 << 20, width: 8) { index, outcome throws(StorageError) in
                guard let bytes = try outcome.get(), let metadata = try? PostMetadata.decode(Data(bytes)), metadata.id == ids[index],
                      PostID.isValid(metadata.id), metadata.sha256.count == 64 else { return }
                found[index] = metadata.trusted(in: store)
            }
        } catch {
            throw Self.listingError(error)
        }
        return found
    }
}
