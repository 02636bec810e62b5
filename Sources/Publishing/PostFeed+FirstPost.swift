package import FoundationEssentials
import StorageUpload
package import Settings
import StoreValues
package import Failures

extension PostFeed {
    /// When the feed's first (oldest) visible post was made, to the second, from its index key
    /// (the keys sort newest first): the listing alone, 1,000 keys a request, no post read. Nil
    /// for an empty feed. The reel starts there unless the operator picks a day (issue 49: it
    /// started at today's date, so after midnight it found nothing).
    package func firstPostTime() throws(RecorderError) -> Date? {
        var startAfter: String?
        var last: String?
        do throws(StorageError) {
            while true {
                let listing = try store.list(prefix: Self.folder, startAfter: startAfter, maxKeys: Self.maximumPageSize)
                if let key = listing.entries.last?.key { last = key }
                guard listing.isTruncated, let next = listing.entries.last?.key else { break }
                startAfter = next
            }
        } catch {
            throw Self.listingError(error)
        }
        return last.flatMap(Self.creationTime(inIndexKey:))
    }
}
