package import FoundationEssentials
import Glibc
import StorageUpload
import SystemSupport
package import Settings
package import Publishing
import StoreValues
package import Failures
package import ShotValues

/// `recorder export`: the event's posts for its hosts, in a new directory or a new ZIP archive
/// (a target ending in `.zip`): per post its video (checked against the SHA-256 in its metadata,
/// through the cache), poster, metadata and, for a post recorded under a guest's consent, the text
/// they agreed to (checked against its SHA-256), and a `SHA256SUMS` of every file as written, which
/// `sha256sum -c SHA256SUMS` verifies (in an archive, inside its one top folder).
///
/// Nothing is overwritten: the directory must be new (or empty), the archive new. The export is
/// made beside it under another name and renamed when whole, so a directory or archive by that
/// name is always a finished export. Files are streamed, never held in memory; a post is read
/// whole (fetched, checked) before any of it is written, so a post that cannot be read leaves
/// nothing behind, even in an archive.
package struct PostExport {
    package let feed: PostFeed
    package let cache: VideoCache
    /// `--with-contacts`: the addresses kept for a post (its guests' mail, under a consent text
    /// that asked to keep them); nil exports none.
    package let contacts: (@Sendable (String) -> [String])?

    package init(feed: PostFeed, cache: VideoCache, contacts: (@Sendable (String) -> [String])? = nil) {
        self.feed = feed
        self.cache = cache
        self.contacts = contacts
    }

    /// What an export wrote and what it could not read.
    package struct Report: Sendable, Encodable, Equatable {
        /// The directory or archive.
        package var directory: String
        /// Posts created at or after this (RFC 3339) were exported.
        package var since: String
        /// The exported posts, newest first.
        package var exported: [String] = []
        /// Posts that could not be read (id: why); the rest were exported.
        package var skipped: [String: RecorderError] = [:]
        package var files = 0
        package var bytes: Int64 = 0
        /// Addresses exported (`--with-contacts`): only of posts whose consent text asked to keep them.
        package var contacts = 0
        /// "directory" or "zip".
        package var format = "directory"
    }

    /// Exports the feed's posts created at or after `since` into `target`, a new directory or (a
    /// name ending in `.zip`) a new archive; hidden posts are left out (the operator took them
    /// down). `progress` hears each post as it is done.
    package func run(since: Date, into target: String, progress: (String) -> Void = { _ in }) throws(RecorderError) -> Report {
        // ("event/" is "event": the work-in-progress goes beside it, not into it.)
        var target = target
        while target.count > 1 && target.hasSuffix("/") { target.removeLast() }
        let asZip = target.lowercased().hasSuffix(".zip")
        if asZip {
            if FileSystem.status(of: target) != nil {
                throw .export(.archiveExists(path: target))
            }
        } else {
            if let status = FileSystem.status(of: target), !status.isDirectory {
                throw .export(.targetIsFile(path: target))
            }
            if let entries = try? DirectoryListing.names(in: target), !entries.isEmpty {
                throw .export(.directoryNotEmpty(path: target))
            }
        }
        let partial = target + ".partial-\(Posix.processID)"
        var report = Report(directory: target, since: RFC3339.string(since), format: asZip ? "zip" : "directory")
        let sink: any ExportSink
        do throws(StorageError) {
            if asZip {
                // One top folder, named as the archive: unpacking never spills into the current directory.
                let folder = String(FilePaths.name(of: target).dropLast(4))
                sink = try ZipSink(path: partial, folder: folder.isEmpty ? "export" : folder)
            } else {
                sink = try DirectorySink(path: partial)
            }
        } catch {
            throw .export(.cannotMake(partial: partial, error))
        }
        var finished = false
        defer { if !finished { sink.abandon() } }

        var sums = ""
        var consentTexts: [String: [UInt8]] = [:]
        var unreadable: [String: RecorderError] = [:]
        try feed.forEachPost(since: since, unreadable: &unreadable) { entry throws(RecorderError) in
            if let problem = entry.problem {
                report.skipped[entry.id] = .feed(.unreadableEntry(id: entry.id, problem: problem))
                return
            }
            let files: [ExportFile]
            do throws(RecorderError) {
                files = try read(entry.id, consentTexts: &consentTexts)
            } catch {
                report.skipped[entry.id] = error
                return
            }
            report.contacts += contactCount(files)
            do throws(StorageError) {
                for file in files {
                    let (sha, size) = try sink.add(file)
                    sums += "\(sha)  \(file.name)\n"
                    report.bytes += size
                    report.files += 1
                }
            } catch {
                throw .export(.cannotWrite(id: entry.id, partial: partial, error))
            }
            report.exported.append(entry.id)
            progress(entry.id)
        }
        report.skipped.merge(unreadable) { $1 }
        // (an empty export is no export: a store looked for in the wrong place said "0 posts" and
        // exit 0; the partial goes with `finished` unset)
        if report.exported.isEmpty {
            throw .export(.nothingToExport(since: report.since, store: feed.location, skipped: report.skipped))
        }

        do throws(StorageError) {
            _ = try sink.add(ExportFile(name: "SHA256SUMS", source: .bytes(Array(sums.utf8))))
            try sink.finish()
            // (it was checked empty above; a file put there since fails here, not overwritten)
            if !asZip, FileSystem.status(of: target) != nil { try LocalFiles.run("remove the empty directory", target) { () throws(Descriptors.Errno) in try Posix.rmdir(target) } }
            if asZip {
                // link(2) fails if the name was taken meanwhile: an archive made since is never replaced.
                try LocalFiles.run("link", target) { () throws(Descriptors.Errno) in try Posix.link(partial, to: target) }
                // The archive is linked at its name; the partial name only takes no room (the same file).
                try? Posix.unlink(partial)
            } else {
                try LocalFiles.run("rename", target) { () throws(Descriptors.Errno) in try Posix.rename(partial, to: target) }
            }
            try LocalFiles.syncDirectory(of: target)
        } catch {
            throw .export(.cannotFinish(target: target, error))
        }
        finished = true
        return report
    }

    /// One post's files, read and checked before any is written: `<id>/<id>.mp4` (through the
    /// cache, checked against the metadata's SHA-256), `<id>/post.json`, `<id>/poster.jpg` when
    /// there is one, and `<id>/consent.txt` when it was recorded under a guest's consent.
    private func read(_ id: String, consentTexts: inout [String: [UInt8]]) throws(RecorderError) -> [ExportFile] {
        let metadata = try feed.metadata(id: id)
        // Checked against the metadata's SHA-256 by the cache (a bad copy is fetched again, a bad original refused).
        let video = try cache.video(for: metadata, from: feed.store)
        var files = [ExportFile(name: "\(id)/\(id).mp4", source: .file(video.path))]
        var consentText: [UInt8]?
        var poster: [UInt8]?
        do throws(StorageError) {
            poster = try feed.store.read(key: PostMetadata.thumbnailKey(id: id), limit: 8 << 20)
            if let consent = metadata.consent {
                if consentTexts[consent.textSha256] == nil,
                   let text = try feed.store.read(key: Consent.textKey(sha256: consent.textSha256), limit: 64 << 10),
                   FileDigest.sha256(text) == consent.textSha256 {
                    consentTexts[consent.textSha256] = text
                }
                consentText = consentTexts[consent.textSha256]
            }
        } catch {
            throw .export(.cannotRead(id: id, error))
        }
        files.append(ExportFile(name: "\(id)/post.json", source: .bytes(Array(try metadata.exported(hasPoster: poster != nil).jsonData()))))
        if let poster { files.append(ExportFile(name: "\(id)/poster.jpg", source: .bytes(poster))) }
        if let consent = metadata.consent {
            let key = Consent.textKey(sha256: consent.textSha256)
            guard let consentText else {
                throw .export(.consentTextMissing(id: id, key: key, sha256: consent.textSha256))
            }
            files.append(ExportFile(name: "\(id)/consent.txt", source: .bytes(consentText)))
            // Addresses only where the text the guest agreed to asked to keep them (`MailConsent`).
            if let contacts, MailConsent.asksToKeep(String(decoding: consentText, as: UTF8.self)) {
                let addresses = contacts(id)
                if !addresses.isEmpty {
                    files.append(ExportFile(name: "\(id)/contacts.txt", source: .bytes(Array(addresses.map { $0 + "\n" }.joined().utf8))))
                }
            }
        }
        return files
    }

    /// The addresses in a post's files (its contacts.txt, one a line).
    private func contactCount(_ files: [ExportFile]) -> Int {
        files.reduce(0) { count, file in
            guard file.name.hasSuffix("/contacts.txt"), case .bytes(let bytes) = file.source else { return count }
            return count + bytes.count(where: { $0 == 0x0a })
        }
    }
}

extension PostMetadata {
    /// The metadata as an export carries it, to be handed to others: its addresses are the
    /// export's own files (`<id>.mp4`, `poster.jpg` beside it), never a path on this machine or a
    /// store's address, and it holds no share token or share link (each is the capability to
    /// open, and on the kiosk's share page to delete, the post).
    func exported(hasPoster: Bool) -> PostMetadata {
        var metadata = self
        metadata.url = video
        metadata.thumbnailURL = hasPoster ? "poster.jpg" : nil
        metadata.shareToken = nil
        metadata.shareURL = nil
        metadata.shareExpiresAt = nil
        return metadata
    }
}

/// A file of an export: its name inside it, and where its bytes come from.
struct ExportFile {
    enum Source {
        case file(String)
        case bytes([UInt8])
    }
    var name: String
    var source: Source
}

/// Where an export's files go.
protocol ExportSink: AnyObject {
    /// Writes `file`; its SHA-256 as written and its size.
    func add(_ file: ExportFile) throws(StorageError) -> (sha256: String, size: Int64)
    func finish() throws(StorageError)
    /// Removes what was written (the export failed).
    func abandon()
}

/// A new directory: each file written durably, its SHA-256 read back from the disk.
final class DirectorySink: ExportSink {
    let path: String

    init(path: String) throws(StorageError) {
        self.path = path
        try LocalFiles.createDirectories(path)
    }

    func add(_ file: ExportFile) throws(StorageError) -> (sha256: String, size: Int64) {
        let destination = path + "/" + file.name
        try LocalFiles.createDirectories(FilePaths.directory(of: destination))
        switch file.source {
        case .file(let source): try LocalFiles.copySynced(from: source, to: destination)
        case .bytes(let bytes): try LocalFiles.writeDurably(bytes, to: destination)
        }
        let digest = try FileDigest.compute(path: destination)
        return (digest.sha256, digest.size)
    }

    func finish() throws(StorageError) {}

    func abandon() { FileSystem.removeTreeIfThere(path) }
}

/// A new ZIP archive, every name under one top folder; SHA-256s taken as the bytes go in.
final class ZipSink: ExportSink {
    private var writer: ZipWriter?
    let path: String
    let folder: String

    init(path: String, folder: String) throws(StorageError) {
        self.path = path
        self.folder = folder
        writer = try ZipWriter(creating: path)
    }

    func add(_ file: ExportFile) throws(StorageError) -> (sha256: String, size: Int64) {
        guard writer != nil else { throw StorageError(.mismatch, .archiveFinished(path: path), retryable: false) }
        let name = folder + "/" + file.name
        switch file.source {
        case .file(let source):
            let sha = try writer!.addFile(from: source, as: name)
            return (sha, FileSystem.size(of: source) ?? 0)
        case .bytes(let bytes):
            return (try writer!.add(bytes, as: name), Int64(bytes.count))
        }
    }

    func finish() throws(StorageError) {
        guard let zip = writer.take() else { return }
        try zip.finish()
    }

    func abandon() {
        writer = nil
        // An export that failed: its partial archive goes (best effort; it is named as partial).
        try? Posix.unlink(path)
    }
}
