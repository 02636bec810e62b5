package import FoundationEssentials
import StorageUpload
package import Settings
import Publishing

/// What a purge of expired posts found and did.
package struct PurgeReport: Sendable, Codable, Equatable {
    /// One expired post: its id and creation time, as its index object names them.
    package struct Post: Sendable, Codable, Equatable {
        package var id: String
        package var createdAt: String
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
    package var failed: [String: String] = [:]
    /// This machine's own copies (`retention.local_days`), when that is set.
    package var local: LocalRetention.Report? = nil
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
                        guard let id = Self.id(inIndexKey: Self.folder + entry.key.dropFirst(folder.count)),
                              let created = Self.creationTime(inIndexKey: entry.key), created < cutoff,
                              seen.insert(id).inserted else { continue }
                        posts.append(PurgeReport.Post(id: id, createdAt: RFC3339.string(created)))
                    }
                    after = listing.isTruncated ? listing.entries.last?.key : nil
                }
            }
        } catch {
            throw Self.listingError(error)
        }
        return posts.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    /// Deletes every post created before `cutoff` (or only lists them: `dryRun`). Each post goes
    /// video, poster and metadata first and its index objects last, so a purge cut short (a crash,
    /// a power cut, a store that stops answering) leaves the index object that the next purge
    /// finds, and it finishes the post. `deleted(id)` is called after each post is gone.
    package func purgeExpired(before cutoff: Date, dryRun: Bool, deleted: (String) -> Void = { _ in }) throws(RecorderError) -> PurgeReport {
        var report = PurgeReport(cutoff: RFC3339.string(cutoff), dryRun: dryRun)
        report.expired = try expiredPosts(before: cutoff)
        guard !dryRun else { return report }
        for post in report.expired {
            let visible = Self.indexKey(id: post.id, createdAt: post.createdAt)
            let keys = [PostMetadata.videoKey(id: post.id), PostMetadata.thumbnailKey(id: post.id), PostMetadata.metadataKey(id: post.id),
                        Self.hiddenKey(visible), visible]
            do throws(StorageError) {
                for key in keys { try store.delete(key: key) }
                report.deleted += 1
                deleted(post.id)
            } catch {
                report.failed[post.id] = error.message
            }
        }
        return report
    }
}
