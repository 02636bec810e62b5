package import FoundationEssentials
import Glibc
import MediaEncoder
import StorageUpload
import SystemSupport
package import Settings
import Shooting

/// Clips joined before and after a shot when it is posted (`recorder post --intro/--outro`,
/// `post.intro`, `post.outro`, the kiosk's posts too): a still picture (PNG or JPEG, shown for
/// `stillSeconds`) or a short MP4 each.
package struct PostBookends: Sendable, Hashable {
    package var intro: String?
    package var outro: String?
    /// How long a still picture is shown.
    package var stillSeconds = 3.0

    /// The longest clip taken as an intro or outro.
    package static let maximumClipSeconds = 60.0

    package init(intro: String? = nil, outro: String? = nil, stillSeconds: Double = 3) {
        self.intro = intro.flatMap { $0.isEmpty ? nil : $0 }
        self.outro = outro.flatMap { $0.isEmpty ? nil : $0 }
        self.stillSeconds = stillSeconds
    }

    /// The configured ones (`post.intro`, `post.outro`, `post.still_seconds`).
    package static func configured(_ configuration: RecorderConfiguration) throws(RecorderError) -> PostBookends {
        PostBookends(intro: configuration.text("post.intro"), outro: configuration.text("post.outro"),
                     stillSeconds: try configuration.number("post.still_seconds"))
    }

    package var isEmpty: Bool { intro == nil && outro == nil }

    /// Checks each file now, as `joining` does before it joins (for `post --dry-run`).
    package func check() throws(RecorderError) { _ = try checked() }

    /// Each file checked (it exists, can be read, is a picture or a short MP4): the error names
    /// the file, what is wrong and what to give instead; 66 for a missing or unreadable file, 65
    /// for one that is not a usable picture or clip.
    func checked() throws(RecorderError) -> (intro: ClipJoiner.Bookend?, outro: ClipJoiner.Bookend?) {
        guard (0.5...30).contains(stillSeconds) else {
            throw RecorderError("post.still_seconds \(stillSeconds) is out of range: give 0.5 to 30 seconds.", kind: .invalidRequest)
        }
        return (try intro.map { path throws(RecorderError) in try Self.bookend(path, "intro", stillSeconds) },
                try outro.map { path throws(RecorderError) in try Self.bookend(path, "outro", stillSeconds) })
    }

    private static func bookend(_ path: String, _ role: String, _ stillSeconds: Double) throws(RecorderError) -> ClipJoiner.Bookend {
        let fix = "Give a PNG or JPEG picture, or an MP4 clip of at most \(Int(maximumClipSeconds)) s, as --\(role) (post.\(role)), or leave it out."
        guard Posix.allows(path, F_OK) else {
            throw RecorderError("the \(role) \(path) does not exist. \(fix)", kind: .notFound)
        }
        guard Posix.allows(path, R_OK), let status = FileSystem.status(of: path), !status.isDirectory else {
            throw RecorderError("the \(role) \(path) cannot be read (not a readable file). Make it readable by this user, or give another.", kind: .notFound)
        }
        let name = FilePaths.name(of: path)
        let kind = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        switch kind {
        case "png", "jpg", "jpeg":
            // The picture's first bytes say what it is; a renamed file is named as such now, not after a failed join.
            let signature: [UInt8] = kind == "png" ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF]
            // (only those bytes read: a large picture is not loaded to look at four)
            // (a file that cannot be opened or read is taken for one that is not a picture)
            let fd = try? Posix.open(path, O_RDONLY | O_CLOEXEC)
            let head = fd.flatMap { try? Posix.read($0, count: signature.count, at: 0) }
            if let fd { Posix.closeAfterUse(fd) }
            guard head == signature else {
                throw RecorderError("the \(role) \(path) is not a \(kind == "png" ? "PNG" : "JPEG") picture (its first bytes say otherwise). \(fix)", kind: .badData)
            }
            return .still(path: path, seconds: stillSeconds)
        case "mp4", "m4v", "mov":
            let info: MediaInfo
            do throws(MediaError) { info = try MediaProbe.inspect(path) } catch {
                throw RecorderError("the \(role) \(path) cannot be read as a video: \(error.description). \(fix)", kind: .badData)
            }
            guard info.frameCount > 0, info.durationSeconds > 0 else {
                throw RecorderError("the \(role) \(path) has no pictures. \(fix)", kind: .badData)
            }
            guard info.durationSeconds <= maximumClipSeconds else {
                throw RecorderError(String(cFormat: "the \(role) \(path) is %.1f s long. ", info.durationSeconds) + fix, kind: .badData)
            }
            return .clip(path: path)
        default:
            throw RecorderError("the \(role) \(path) is neither a picture nor a clip by its name (.\(kind)). \(fix)", kind: .badData)
        }
    }
}

extension PostEnqueuer {
    /// What joining the bookends did, for the CLI's notes and the kiosk's journal.
    package struct JoinReport: Sendable, Hashable {
        package var intro: String?
        package var outro: String?
        /// Why the guest's take was encoded again; nil when it was copied as recorded.
        package var reencodedBecause: String?
    }

    /// The plan with the shot joined to `bookends` (nil: the configured ones): the joined file
    /// (`joined.mp4` in the shot's folder) is what is posted, with its own size, checksums and
    /// length. The shot's own video stays until the post is queued; a failure leaves it and queues
    /// nothing. With no bookends, the plan as it was.
    package func joining(_ chosen: PostBookends? = nil, to plan: Plan) throws(RecorderError) -> Plan {
        let bookends: PostBookends
        if let chosen { bookends = chosen } else { bookends = try PostBookends.configured(configuration) }
        guard !bookends.isEmpty else { return plan }
        let (intro, outro) = try bookends.checked()
        let folder = FilePaths.directory(of: plan.shot.videoPath)
        let target = FilePaths.join(folder, Self.joinedName)
        let partial = target + ".partial"
        let scratch = FilePaths.join(folder, ".join")
        FileSystem.removeScratch(scratch)
        do throws(Descriptors.Errno) { try Posix.mkdir(scratch, mode: 0o700) } catch {
            throw RecorderError("cannot make \(scratch) in the shot's folder: \(error.description). Check that the workspace is writable.", kind: .cannotWrite)
        }
        defer { FileSystem.removeScratch(scratch) }
        var finished = false
        // A join that failed: its partial file goes (best effort: the next join's replaces it).
        defer { if !finished { try? Posix.unlink(partial) } }
        let reencodedBecause: String?
        let settings = try ShotRequest.encoderSettings(configuration)
        let backend = try configuration.makeBackend()
        do throws(MediaError) {
            reencodedBecause = try ClipJoiner.join(intro: intro, take: plan.shot.videoPath, outro: outro, to: partial,
                                          settings: settings, scratch: scratch)
        } catch {
            let parts = [intro == nil ? nil : "intro", outro == nil ? nil : "outro"].compactMap { $0 }.joined(separator: " and ")
            throw RecorderError(error).retold("cannot join the \(parts) to shot \(plan.shot.id): \(error.description) The shot is kept as it is and nothing was queued. Give another file (--intro/--outro, post.intro/post.outro), or post the shot without it: --intro \"\" --outro \"\".")
        }
        let info: MediaInfo
        let digest: FileDigest
        do throws(StorageError) {
            try LocalFiles.syncFile(partial)
            try LocalFiles.run("rename", target) { () throws(Descriptors.Errno) in try Posix.rename(partial, to: target) }
            finished = true
            try LocalFiles.syncDirectory(of: target)
            digest = try FileDigest.compute(path: target, partSize: backend.partSize(forSize: FileSystem.status(of: target)?.size ?? 0))
        } catch {
            throw RecorderError("cannot keep the joined video at \(target): \(error.message) The shot is kept as it is and nothing was queued.", storage: error)
        }
        do throws(MediaError) { info = try MediaProbe.inspect(target) } catch {
            throw RecorderError(error).retold("the joined video \(target) cannot be read back: \(error.description) The shot is kept as it is and nothing was queued.")
        }
        var joined = plan
        joined.videoPath = target
        joined.digest = digest
        joined.metadata.byteSize = digest.size
        joined.metadata.sha256 = digest.sha256
        joined.metadata.durationSeconds = info.durationSeconds
        joined.join = JoinReport(intro: bookends.intro, outro: bookends.outro, reencodedBecause: reencodedBecause)
        return joined
    }

    /// The shot joined to its bookends, in the shot's folder until it is queued.
    static let joinedName = "joined.mp4"
}
