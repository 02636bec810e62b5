import Settings
import SystemSupport
package import Failures

extension OperatorWords {
    static func post(_ failure: PostFailure) -> String {
        switch failure {
        case .shotUnreadable(let id, let problem):
            "shot \(id) cannot be read: \(shotFile(problem)). It is kept as it is; repair or remove it by hand, or post another shot."
        case .noSuchShot(let id, let workspace, let known):
            "there is no shot \(id) in \(workspace) (\(known.isEmpty ? "it holds none" : "it holds: \(known.joined(separator: ", "))"))."
        case .currentShotUnreadable(let id, let problem):
            "the current shot \(id) cannot be read: \(shotFile(problem)). It is kept as it is; record a new shot."
        case .noFinishedShot:
            "there is no finished shot to post. Record one first."
        case .videoMissing(let path):
            "the shot's video \(path) is missing. Record a new shot."
        case .consentTextChanged(let shot, let path, let sha256):
            "shot \(shot) was recorded under a guest's consent, but its text \(path) is missing or changed (its SHA-256 must be \(sha256)). The shot is kept as it is and was not posted; restore the file, or delete the shot."
        case .alreadyPosted(let id, let whereItIs):
            "this shot was already posted as \(id); \(posted(whereItIs, flush: "it is sent when the store answers")). Record a new shot to post again."
        case .postingElsewhere:
            "another process is posting this shot right now; wait for it."
        case .storeMissing(let path):
            "nothing was queued: the store directory \(path) does not exist (a disk that is not mounted?). Mount its disk."
        case .storeNotReady:
            "nothing was queued: \(cause(failure))"
        case .cannotCopyVideo:
            "\(cause(failure)) The shot was kept; post it again once there is room."
        case .cannotQueueConsentText:
            "\(cause(failure)) The shot was kept; post it again."
        case .queuedUnreadable(let path):
            "the queued post \(path) cannot be read back."
        case .outboxBusy(let root):
            "another recorder is uploading this outbox (\(root)/.lock is locked); it will send what is queued."
        case .notQueued(let id, let outbox, let queued):
            "no post \(id) is queued in \(outbox) (\(queued.isEmpty ? "the outbox is empty" : "queued: " + queued.joined(separator: ", ")))."
        case .notUploaded(let id, let directory, _):
            "post \(id) was not uploaded: \(cause(failure)) It stays queued in \(directory)."
        case .stillQueued(let id, let directory, let attempts, _):
            "post \(id) is still queued (\(directory)) after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(cause(failure)) It is sent again by itself."
        case .metadataNotJSON(let detail):
            "a post's metadata is not valid JSON (\(detail))."
        }
    }

    /// Where a shot's earlier post is; `flush` says how a queued one is sent.
    static func posted(_ whereItIs: PostFailure.PostedWhere, flush: String) -> String {
        switch whereItIs {
        case .uploaded(let at, let video, let metadata): "it was uploaded at \(at): video \(video), metadata \(metadata)"
        case .queued(let directory): "it is queued in the outbox at \(directory) (\(flush))"
        case .unknown: "its outbox record is gone (another outbox directory?)"
        }
    }

    static func bookend(_ failure: BookendFailure) -> String {
        bookend(failure, fix: { role in
            "Give a PNG or JPEG picture, or an MP4 clip of at most \(Int(BookendFailure.maximumClipSeconds)) s, as post.\(role.rawValue), or leave it out."
        }, another: "Give another file (post.intro, post.outro), or leave it out.")
    }

    /// The bookend's words with the fix as the edge spells it (`fix`: for one end; `another`: for a join).
    package static func bookend(_ failure: BookendFailure, fix: (BookendFailure.Role) -> String, another: String) -> String {
        switch failure {
        case .stillSecondsOutOfRange(let seconds):
            "post.still_seconds \(Setting.Rule.format(seconds)) is out of range: give 0.5 to 30 seconds."
        case .missing(let role, let path):
            "the \(role.rawValue) \(path) does not exist. \(fix(role))"
        case .unreadable(let role, let path):
            "the \(role.rawValue) \(path) cannot be read (not a readable file). Make it readable by this user, or give another."
        case .notThePicture(let role, let path, let png):
            "the \(role.rawValue) \(path) is not a \(png ? "PNG" : "JPEG") picture (its first bytes say otherwise). \(fix(role))"
        case .notAVideo(let role, let path, _):
            "the \(role.rawValue) \(path) cannot be read as a video: \(cause(failure)). \(fix(role))"
        case .noPictures(let role, let path):
            "the \(role.rawValue) \(path) has no pictures. \(fix(role))"
        case .tooLong(let role, let path, let seconds, _):
            "the \(role.rawValue) \(path) is \(self.seconds(seconds)) s long. \(fix(role))"
        case .unknownType(let role, let path, let ext):
            "the \(role.rawValue) \(path) is neither a picture nor a clip by its name (.\(ext)). \(fix(role))"
        case .cannotMakeScratch(let path, let code):
            "cannot make \(path) in the shot's folder: \(errno(code)). Check that the workspace is writable."
        case .cannotJoin(let roles, let shot, _):
            "cannot join the \(roles.map(\.rawValue).joined(separator: " and ")) to shot \(shot): \(cause(failure)) The shot is kept as it is and nothing was queued. \(another)"
        case .cannotKeepJoined(let path, _):
            "cannot keep the joined video at \(path): \(cause(failure)) The shot is kept as it is and nothing was queued."
        case .joinedUnreadable(let path, _):
            "the joined video \(path) cannot be read back: \(cause(failure)) The shot is kept as it is and nothing was queued."
        }
    }

    static func feed(_ failure: FeedFailure) -> String {
        switch failure {
        case .pageOutOfRange(let number):
            "the page must be 1 or more (1 is the newest page); got \(number)."
        case .pageSizeOutOfRange(let size, let maximum):
            "a page holds 1 to \(maximum) posts; got \(size)."
        case .notAPostID(let id):
            "'\(id)' is not a post id (10 letters and digits)."
        case .cannotList:
            "cannot read the feed: \(cause(failure))"
        case .cannotRead(let id, _):
            "cannot read post \(id): \(cause(failure))"
        case .notInStore(let id, let store):
            "post \(id) is not in the store (\(store)): deleted, or posted to another store."
        case .metadataDamaged(let id, let key):
            "post \(id)'s metadata (\(key)) is damaged, so its video cannot be checked. Re-post the video, or repair the document in the store."
        case .cannotHide(let id, _):
            "cannot hide post \(id): \(cause(failure))"
        case .cannotShow(let id, _):
            "cannot show post \(id) again: \(cause(failure))"
        case .cannotDelete(let id, let partly, _):
            "cannot delete post \(id) from the store: \(cause(failure))" + (partly ? " Delete it again once the store answers (what is deleted stays deleted)." : "")
        case .nothingToDelete(let id, let store):
            "post \(id) is not in the store (\(store)): deleted already, or never posted there."
        case .cannotStorePoster(let id, _):
            "cannot store post \(id)'s poster: \(cause(failure))"
        case .cannotReadPoster(let id, _):
            "cannot read post \(id)'s poster: \(cause(failure))"
        case .noTemporaryFile(let id, let directory, let code):
            "cannot make a temporary file in \(directory) for post \(id)'s video: \(errno(code))"
        case .cannotDownloadVideo(let id, _):
            "cannot download post \(id)'s video: \(cause(failure))"
        case .videoNotInStore(let id):
            "post \(id)'s video is not in the store."
        case .videoMismatch(let id):
            "post \(id)'s video does not match its metadata's SHA-256; no poster is made of it."
        case .noPicture(let id, _):
            "no poster can be made of post \(id)'s video: \(cause(failure))"
        case .unreadableEntry(_, let problem):
            problem.map(feedProblem) ?? "its creation time cannot be read"
        }
    }
}

extension OperatorWords {
    /// Why a post's feed entry is incomplete.
    package static func feedProblem(_ problem: FeedEntryProblem) -> String {
        switch problem {
        case .metadataMissing(let key): "metadata missing (\(key) is not in the store)"
        case .metadataTooLarge(let limit): "metadata damaged: larger than \(ByteCount.human(Int64(limit)))"
        case .metadataNotAPost: "metadata damaged: not a post's JSON document"
        case .metadataNamesAnotherPost(let id): "metadata damaged: it names post \(id)"
        }
    }
}

extension OperatorWords {
    /// What is wrong with a shot's shot.json, after "cannot be read: ".
    static func shotFile(_ problem: ShotFileProblem) -> String {
        switch problem {
        case .unreadable(let path): "\(path) is missing or cannot be read"
        case .damaged(let path, let parser): "\(path) is damaged (\(parser))"
        }
    }
}
