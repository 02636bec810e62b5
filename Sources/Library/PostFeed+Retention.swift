package import FoundationEssentials
import StorageUpload
package import Settings
import Publishing
import StoreValues
package import Failures
import SystemSupport

/// What a purge of expired posts found and did.
package struct PurgeReport: Sendable, Encodable, Equatable {
    /// One expired post: its id and creation time, as its index object names them.
    package struct Post: Sendable, Codable, Equatable {
        package var id: String
        package var createdAt: String
        /// The kiosk that posted it, as its index key says (nil: a post from before kiosks had ids).
        package var kiosk: String? = nil
    }

    /// Posts created before this (RFC 3339) were expired.
    package var cutoff: String
    /// Only listed, nothing deleted (`recorder feed --purge-expired` without `--yes`).
    package var dryRun: Bool
    /// The expired posts, oldest last.
    package var expired: [Post] = []
    /// Deleted from the store (0 in a dry run).
    package var deleted = 0
    /// Posts that could not be deleted now, and why; the next purge tries them again.
    package var failed: [String: RecorderError] = [:]
    /// This machine's own copies (`retention.local_days`), when that is set.
    package var local: LocalRetentionReport? = nil
    /// Expired posts left alone because they are not this scope's (`retention.scope = own`):
    /// other kiosks' posts, and posts from before kiosks had ids (only `store` deletes those).
    package var otherKiosks = 0
    package var withoutKiosk = 0
    /// Why nothing was deleted: this machine's clock cannot be trusted now.
    package var refused: ClockDoubt? = nil
    /// Guests' mails of the expired posts that waited in this machine's outbox, forgotten with
    /// them (never to be sent; in a dry run, those that would be), and the sent mails' records
    /// whose kept address went.
    package var mailsForgotten = 0
    package var addressesForgotten = 0

    package init(cutoff: String, dryRun: Bool) {
        self.cutoff = cutoff
        self.dryRun = dryRun
    }
}

extension PostFeed {
    /// The posts created before `cutoff`, from the index objects (the feed's and the hidden ones):
    /// one listing from where the expired begin, as the keys are newest first. A post without an
    /// index object (from a version before the feed: `recorder feed --reindex`) is not found.
    package func expiredPosts(before cutoff: Date) throws(RecorderError) -> [PurgeReport.Post] {
        // Keys of posts created at or after the cutoff sort before this one, the expired after it.
        let border = Self.timeDigits(cutoff.timeIntervalSince1970) + "-~"
        var posts: [PurgeReport.Post] = []
        var seen = Set<String>()
        do throws(StorageError) {
            for folder in [Self.folder, Self.hiddenFolder] {
                var after: String? = folder + border
                while let start = after {
                    let listing = try store.list(prefix: folder, startAfter: start, maxKeys: Self.maximumPageSize)
                    for entry in listing.entries {
                        // Nothing read from the store is trusted: a key that is not an index key is skipped.
                        guard let (id, kiosk) = Self.parts(ofIndexKey: Self.folder + entry.key.dropFirst(folder.count)),
                              let created = Self.creationTime(inIndexKey: entry.key), created < cutoff,
                              seen.insert(id).inserted else { continue }
                        posts.append(PurgeReport.Post(id: id, createdAt: RFC3339.string(created), kiosk: kiosk))
                    }
                    after = listing.isTruncated ? listing.entries.last?.key : nil
                }
            }
        } catch {
            throw Self.listingError(error)
        }
        return posts.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    /// The newest post in the store (visible or hidden), by its index key: one listing of each
    /// folder. Nil for an empty store.
    package func newestPost() throws(RecorderError) -> (id: String, createdAt: Date)? {
        var newest: (id: String, createdAt: Date)?
        do throws(StorageError) {
            for folder in [Self.folder, Self.hiddenFolder] {
                // (the first key that is an index key: a page of them, in case of strays)
                let listing = try store.list(prefix: folder, startAfter: nil, maxKeys: 10)
                for entry in listing.entries {
                    guard let id = Self.id(inIndexKey: Self.folder + entry.key.dropFirst(folder.count)),
                          let created = Self.creationTime(inIndexKey: entry.key) else { continue }
                    if newest.map({ created > $0.createdAt }) ?? true { newest = (id, created) }
                    break
                }
            }
        } catch {
            throw Self.listingError(error)
        }
        return newest
    }

    /// Why `now` cannot be trusted to expire posts by (`ClockDoubt`), or nil: it is after this
    /// version was made, not behind the store's newest post, and synchronised as far as
    /// `synchronised` can tell.
    package func clockDoubt(now: Date, synchronised: Bool?) throws(RecorderError) -> ClockDoubt? {
        try ClockDoubt.about(now, newest: newestPost(), synchronised: synchronised)
    }

    /// Deletes every post of `scope` created before `cutoff` (or only lists them: `dryRun`). Each
    /// post goes video, poster and metadata first and its index objects last, so a purge cut short
    /// (a crash, a power cut, a store that stops answering) leaves the index object that the next
    /// purge finds, and it finishes the post. `deleted(id)` is called after each post is gone.
    /// Expired posts outside the scope are counted in the report, not listed.
    package func purgeExpired(before cutoff: Date, scope: RetentionScope, dryRun: Bool,
                              deleted: (String) -> Void = { _ in }) throws(RecorderError) -> PurgeReport {
        var report = PurgeReport(cutoff: RFC3339.string(cutoff), dryRun: dryRun)
        for post in try expiredPosts(before: cutoff) {
            if scope.covers(post.kiosk) {
                report.expired.append(post)
            } else if post.kiosk == nil {
                report.withoutKiosk += 1
            } else {
                report.otherKiosks += 1
            }
        }
        guard !dryRun else { return report }
        for post in report.expired {
            let visible = Self.indexKey(id: post.id, createdAt: post.createdAt, kiosk: post.kiosk)
            let keys = [PostMetadata.videoKey(id: post.id), PostMetadata.originalKey(id: post.id), PostMetadata.thumbnailKey(id: post.id), PostMetadata.metadataKey(id: post.id),
                        Self.hiddenKey(visible), visible]
            do throws(StorageError) {
                for key in keys { try store.delete(key: key) }
                report.deleted += 1
                deleted(post.id)
            } catch {
                report.failed[post.id] = .storage(error)
            }
        }
        return report
    }
}
