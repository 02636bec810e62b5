import FoundationEssentials
import Glibc
import MediaEncoder
import StorageUpload
import SystemSupport
package import Settings
import Shooting
import MediaValues
import StoreValues
package import Failures
package import Publishing

/// Clips joined before and after a shot when it is posted (`recorder post --intro/--outro`,
/// `post.intro`, `post.outro`, the kiosk's posts too): a still picture (PNG or JPEG, shown for
/// `stillSeconds`) or a short MP4 each.
package struct PostBookends: Sendable, Hashable {
    package var intro: String?
    package var outro: String?
    /// How long a still picture is shown.
    package var stillSeconds = 3.0

    /// The longest clip taken as an intro or outro.
    package static let maximumClipSeconds = BookendFailure.maximumClipSeconds

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
            throw .bookend(.stillSecondsOutOfRange(stillSeconds))
        }
        return (try intro.map { path throws(RecorderError) in try Self.bookend(path, .intro, stillSeconds) },
                try outro.map { path throws(RecorderError) in try Self.bookend(path, .outro, stillSeconds) })
    }

    private static func bookend(_ path: String, _ role: BookendFailure.Role, _ stillSeconds: Double) throws(RecorderError) -> ClipJoiner.Bookend {
        guard Posix.allows(path, F_OK) else { throw .bookend(.missing(role, path: path)) }
        guard Posix.allows(path, R_OK), let status = FileSystem.status(of: path), !status.isDirectory else {
            throw .bookend(.unreadable(role, path: path))
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
                throw .bookend(.notThePicture(role, path: path, png: kind == "png"))
            }
            return .still(path: path, seconds: stillSeconds)
        case "mp4", "m4v", "mov":
            let info: MediaInfo
            do throws(MediaError) { info = try MediaProbe.inspect(path) } catch {
                throw .bookend(.notAVideo(role, path: path, error))
            }
            guard info.frameCount > 0, info.durationSeconds > 0 else {
                throw .bookend(.noPictures(role, path: path))
            }
            guard info.durationSeconds <= maximumClipSeconds else {
                throw .bookend(.tooLong(role, path: path, seconds: info.durationSeconds, limit: maximumClipSeconds))
            }
            return .clip(path: path)
        default:
            throw .bookend(.unknownType(role, path: path, extension: kind))
        }
    }
}

extension PostEnqueuer {
    /// What joining the bookends did, for the CLI's notes and the kiosk's journal.
    package struct JoinReport: Sendable, Hashable {
        package var intro: String?
        package var outro: String?
        /// Why the guest's take was encoded again; nil when it was copied as recorded.
        package var reencodedBecause: Reencoding?
    }

    /// Why the take was encoded again, not copied as recorded.
    package enum Reencoding: Sendable, Hashable {
        /// The shot's picture is not H.264.
        case shotNotH264
        /// The bookend's picture size is not the shot's.
        case pictureSizesDiffer
        /// The shot's H.264 header is not libx264's at the current settings (a camera's own
        /// H.264, or shoot.preset, crf or bitrate changed since the shot).
        case h264HeaderDiffers
        /// The sound formats differ.
        case soundFormatsDiffer

        init(_ mismatch: ClipJoiner.Mismatch) {
            switch mismatch {
            case .notH264: self = .shotNotH264
            case .pictureSizes: self = .pictureSizesDiffer
            case .h264Header: self = .h264HeaderDiffers
            case .soundFormats: self = .soundFormatsDiffer
            }
        }
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
            throw .bookend(.cannotMakeScratch(path: scratch, errno: error.code))
        }
        defer { FileSystem.removeScratch(scratch) }
        var finished = false
        // A join that failed: its partial file goes (best effort: the next join's replaces it).
        defer { if !finished { try? Posix.unlink(partial) } }
        let reencodedBecause: Reencoding?
        let settings = try ShotRequest.encoderSettings(configuration)
        let backend = try configuration.makeBackend()
        do throws(MediaError) {
            reencodedBecause = try ClipJoiner.join(intro: intro, take: plan.shot.videoPath, outro: outro, to: partial,
                                          settings: settings, scratch: scratch).map(Reencoding.init)
        } catch {
            let roles = [intro == nil ? nil : BookendFailure.Role.intro, outro == nil ? nil : .outro].compactMap { $0 }
            throw .bookend(.cannotJoin(roles: roles, shot: plan.shot.id, error))
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
            throw .bookend(.cannotKeepJoined(path: target, error))
        }
        do throws(MediaError) { info = try MediaProbe.inspect(target) } catch {
            throw .bookend(.joinedUnreadable(path: target, error))
        }
        var joined = plan
        joined.videoPath = target
        joined.digest = digest
        joined.metadata.byteSize = digest.size
        joined.metadata.sha256 = digest.sha256
        joined.metadata.crc32 = digest.crc32.map(CRC32.hex)
        joined.metadata.durationSeconds = info.durationSeconds
        joined.join = JoinReport(intro: bookends.intro, outro: bookends.outro, reencodedBecause: reencodedBecause)
        return joined
    }

    /// The shot joined to its bookends, in the shot's folder until it is queued.
    static let joinedName = "joined.mp4"
}
