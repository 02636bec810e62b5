package import FoundationEssentials
import Glibc
import StorageUpload

/// `recorder export`: the event's posts for its hosts, in a new directory: per post its video
/// (checked against the SHA-256 in its metadata, through the cache), poster and metadata, and a
/// `SHA256SUMS` of every file as written, which `sha256sum -c SHA256SUMS` verifies.
///
/// Nothing is overwritten: the directory must be new (or empty). The export is made beside it
/// under another name and renamed when whole, so a directory by that name is always a finished
/// export. Files are copied, never held in memory.
package struct PostExport {
    package let feed: PostFeed
    package let cache: VideoCache

    package init(feed: PostFeed, cache: VideoCache) {
        self.feed = feed
        self.cache = cache
    }

    /// What an export wrote and what it could not read.
    package struct Report: Sendable, Codable, Equatable {
        package var directory: String
        /// Posts created at or after this (RFC 3339) were exported.
        package var since: String
        /// The exported posts, newest first.
        package var exported: [String] = []
        /// Posts that could not be read (id: why); the rest were exported.
        package var skipped: [String: String] = [:]
        package var files = 0
        package var bytes: Int64 = 0
    }

    /// Exports the feed's posts created at or after `since` into `directory` (hidden posts are left
    /// out: the operator took them down). `progress` hears each post as it is done.
    package func run(since: Date, into directory: String, progress: (String) -> Void = { _ in }) throws(RecorderError) -> Report {
        // ("event/" is "event": the work-in-progress goes beside it, not into it.)
        var directory = directory
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        if let status = LocalFiles.status(of: directory), !status.isDirectory {
            throw RecorderError("\(directory) is a file: export into a new directory (-o NEW_DIRECTORY). The file was not changed.",
                                exitStatus: .cantCreate)
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: directory), !entries.isEmpty {
            throw RecorderError("\(directory) already exists and is not empty: export into a new directory (-o NEW_DIRECTORY). Nothing in it was changed.",
                                exitStatus: .cantCreate)
        }
        let partial = directory + ".partial-\(getpid())"
        var report = Report(directory: directory, since: RFC3339.string(since))
        var files: [String] = []
        do throws(StorageError) {
            try LocalFiles.createDirectories(partial)
        } catch {
            throw RecorderError("cannot make the export directory \(partial): \(error.message)", storage: error, exitStatus: .cantCreate)
        }
        var finished = false
        defer { if !finished { try? FileManager.default.removeItem(atPath: partial) } }

        var page = try feed.page(1, size: 100)
        walk: while true {
            for entry in page.entries {
                guard let created = RFC3339.date(entry.createdAt) else {
                    report.skipped[entry.id] = entry.problem ?? "its creation time cannot be read"
                    continue
                }
                if created < since { break walk }
                if let problem = entry.problem {
                    report.skipped[entry.id] = problem
                    continue
                }
                do throws(RecorderError) {
                    files += try export(entry.id, into: partial)
                    report.exported.append(entry.id)
                    progress(entry.id)
                } catch {
                    report.skipped[entry.id] = error.message
                    try? FileManager.default.removeItem(atPath: partial + "/" + entry.id)
                }
            }
            guard let next = page.next else { break }
            page = try feed.page(after: next, size: 100)
        }

        // The listing, from the files as they are on disk.
        var sums = ""
        do throws(StorageError) {
            for file in files.sorted() {
                let digest = try FileDigest.compute(path: partial + "/" + file)
                sums += "\(digest.sha256)  \(file)\n"
                report.bytes += digest.size
            }
            report.files = files.count
            try LocalFiles.writeDurably(Array(sums.utf8), to: partial + "/SHA256SUMS")
            // (it was checked empty above; a file put there since fails here, not overwritten)
            if LocalFiles.status(of: directory) != nil { try LocalFiles.call("remove the empty directory", directory) { rmdir(directory) } }
            try LocalFiles.call("rename", directory) { rename(partial, directory) }
            try LocalFiles.syncDirectory(of: directory)
        } catch {
            throw RecorderError("cannot finish the export in \(directory): \(error.message)", storage: error, exitStatus: .ioError)
        }
        finished = true
        return report
    }

    /// One post's files under `directory/<id>/`; their paths relative to `directory`.
    private func export(_ id: String, into directory: String) throws(RecorderError) -> [String] {
        let metadata = try feed.metadata(id: id)
        // Checked against the metadata's SHA-256 by the cache (a bad copy is fetched again, a bad original refused).
        let video = try cache.video(for: metadata, from: feed.store)
        let folder = directory + "/" + id
        let json = Array(try metadata.jsonData())
        var written: [String] = []
        do throws(StorageError) {
            try LocalFiles.createDirectories(folder)
            try LocalFiles.copySynced(from: video.path, to: folder + "/" + id + ".mp4")
            written.append(id + "/" + id + ".mp4")
            try LocalFiles.writeDurably(json, to: folder + "/post.json")
            written.append(id + "/post.json")
            if let poster = try feed.store.read(key: PostMetadata.thumbnailKey(id: id), limit: 8 << 20) {
                try LocalFiles.writeDurably(poster, to: folder + "/poster.jpg")
                written.append(id + "/poster.jpg")
            }
        } catch {
            throw RecorderError("cannot export post \(id): \(error.message)", storage: error)
        }
        return written
    }
}
