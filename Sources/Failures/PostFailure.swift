package import SystemSupport
package import MediaValues
package import StoreValues

/// Why a shot was not made a post, or a post not queued, sent or found in the outbox, with its
/// data; the edges word it.
package enum PostFailure: RecorderFailure {
    // Which shot
    /// Shot `id` is there but its shot.json cannot be read (`problem`: what is wrong).
    case shotUnreadable(id: String, problem: ShotFileProblem)
    /// There is no shot `id` in the workspace (`known`: the shots it holds).
    case noSuchShot(id: String, workspace: String, known: [String])
    /// The current shot `id` cannot be read (`problem`: what is wrong).
    case currentShotUnreadable(id: String, problem: ShotFileProblem)
    /// There is no finished shot to post.
    case noFinishedShot(workspace: String)
    /// The shot's video is gone.
    case videoMissing(path: String)
    /// The shot was recorded under a guest's yes, and the text they agreed to is missing or
    /// changed (it must have `sha256`).
    case consentTextChanged(shot: String, path: String, sha256: String)
    /// The shot was posted before, as `id`; `whereItIs` says where that post is now.
    case alreadyPosted(id: String, whereItIs: PostedWhere)
    /// Another process is posting this shot now (the workspace's post lock is taken).
    case postingElsewhere(workspace: String)
    /// The configured local store directory `path` does not exist and never took a post from this
    /// outbox (a mistyped directory, a disk not mounted, one still to be made), found before
    /// anything was queued. (One that took posts is a disk away: the post is queued for it.)
    case storeMissing(path: String)
    /// The store cannot take a post now, found before anything was queued (its path is a file).
    case storeNotReady(StorageError)
    // The outbox
    /// The video could not be copied into the outbox (a full disk); the shot was kept.
    case cannotCopyVideo(StorageError)
    /// The consent text could not be copied in beside the queued video.
    case cannotQueueConsentText(StorageError)
    /// A post just queued cannot be read back.
    case queuedUnreadable(path: String)
    /// Another process is uploading this outbox (its lock is taken).
    case outboxBusy(root: String)
    /// No post `id` is queued (`queued`: the ids that are).
    case notQueued(id: String, outbox: String, queued: [String])
    // Uploading
    /// The store refused post `id` for a reason trying again cannot help with; it stays queued.
    case notUploaded(id: String, queuedIn: String, StorageError)
    /// The store failed post `id` `attempts` times, and the policy allows no more now; it stays
    /// queued.
    case stillQueued(id: String, queuedIn: String, attempts: Int, StorageError)
    // Metadata
    /// A post's metadata is not the JSON a post's is (the decoder's detail).
    case metadataNotJSON(detail: String)

    /// Where a shot's earlier post is.
    package enum PostedWhere: Sendable, Equatable, Encodable {
        /// Uploaded: when, and where its video and metadata went.
        case uploaded(at: String, video: String, metadata: String)
        /// Still queued, in this outbox folder.
        case queued(directory: String)
        /// The outbox has no record of it (another outbox directory?).
        case unknown
    }

    package var kind: RecorderError.Kind {
        switch self {
        case .shotUnreadable, .currentShotUnreadable, .consentTextChanged, .alreadyPosted, .metadataNotJSON: .badData
        case .noSuchShot, .noFinishedShot, .videoMissing, .notQueued: .notFound
        case .postingElsewhere, .outboxBusy: .busy
        case .storeMissing: .cannotWrite
        case .storeNotReady(let error), .notUploaded(_, _, let error): RecorderError.Kind(error)
        case .cannotCopyVideo, .cannotQueueConsentText, .queuedUnreadable: .ioFailure
        case .stillQueued: .busy
        }
    }

    package var advice: [SettingAdvice] {
        switch self {
        // A store directory this outbox never saw (a mistyped path, a new disk): another directory
        // was meant, or recorder can make it. Never offered for one that took posts and is missing
        // (a disk away, to be mounted): making it would fill the disk it sits on.
        case .storeMissing:
            [SettingAdvice(.storeDirectory, "DIRECTORY", "with the directory meant"),
             SettingAdvice(.createStoreDirectory, "true", "to have recorder create it")]
        default: cause?.advice ?? []
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .storeNotReady(let error), .cannotCopyVideo(let error), .cannotQueueConsentText(let error), .notUploaded(_, _, let error), .stillQueued(_, _, _, let error):
            .storage(error)
        default: nil
        }
    }
}

/// Why an intro or outro (`post.intro`, `post.outro`) cannot be joined to a shot, with its data.
/// The shot is kept as it is and nothing is queued.
package enum BookendFailure: RecorderFailure {
    /// Which end.
    package enum Role: String, Sendable, Equatable, Encodable {
        case intro, outro
    }

    /// The longest clip an intro or outro may be (`PostBookends.maximumClipSeconds`).
    package static let maximumClipSeconds = 60.0

    /// `post.still_seconds` outside 0.5...30.
    case stillSecondsOutOfRange(Double)
    case missing(Role, path: String)
    /// Not a readable file (unreadable, or a directory).
    case unreadable(Role, path: String)
    /// Named .png or .jpg, and its first bytes are not that (`png`: which it claims to be).
    case notThePicture(Role, path: String, png: Bool)
    case notAVideo(Role, path: String, MediaError)
    case noPictures(Role, path: String)
    /// Longer than `limit` seconds.
    case tooLong(Role, path: String, seconds: Double, limit: Double)
    /// Neither a picture nor a clip by its name's extension.
    case unknownType(Role, path: String, extension: String)
    /// A scratch folder for the join cannot be made in the shot's folder (errno).
    case cannotMakeScratch(path: String, errno: Int32)
    /// Joining failed (`roles`: the ends being joined).
    case cannotJoin(roles: [Role], shot: String, MediaError)
    /// The joined video cannot be kept in place.
    case cannotKeepJoined(path: String, StorageError)
    /// The joined video cannot be read back.
    case joinedUnreadable(path: String, MediaError)

    package var kind: RecorderError.Kind {
        switch self {
        case .stillSecondsOutOfRange: .invalidRequest
        case .missing, .unreadable: .notFound
        case .notThePicture, .notAVideo, .noPictures, .tooLong, .unknownType: .badData
        case .cannotMakeScratch: .cannotWrite
        case .cannotJoin(_, _, let error), .joinedUnreadable(_, let error): RecorderError.Kind(error)
        case .cannotKeepJoined(_, let error): RecorderError.Kind(error)
        }
    }

    package var cause: RecorderError? {
        switch self {
        case .notAVideo(_, _, let error), .cannotJoin(_, _, let error), .joinedUnreadable(_, let error): .media(error)
        case .cannotKeepJoined(_, let error): .storage(error)
        default: nil
        }
    }
}


extension PostFailure {
    package var wrapped: RecorderError { .post(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .post(let failure) = error else { return nil }
        self = failure
    }
}

extension BookendFailure {
    package var wrapped: RecorderError { .bookend(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .bookend(let failure) = error else { return nil }
        self = failure
    }
}
