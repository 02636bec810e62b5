package import FoundationEssentials
package import Failures

/// A video `VideoResponder` answers with, as a video cache hands it over (the kiosk makes one of
/// its `VideoCache.Lookup`): a whole file, or one still arriving from the store.
package enum ServedVideo: Sendable {
    case whole(WholeVideo)
    case arriving(any ArrivingVideo)
}

/// A whole video: its file, and its bytes when memory holds them.
package struct WholeVideo: Sendable {
    package var path: String
    package var bytes: Data?

    package init(path: String, bytes: Data?) {
        self.path = path
        self.bytes = bytes
    }
}

/// A video on its way from the store into a file, read while it arrives (the video cache's
/// `VideoCache.Arrival`): a reader ahead of the store sleeps in `wait(beyond:limit:)`.
package protocol ArrivingVideo: AnyObject, Sendable {
    /// Where the bytes are written as they come (it may not exist yet).
    var path: String { get }
    /// How many bytes the whole video has.
    var size: Int64 { get }
    /// The bytes in `path` a reader may take while the video arrives: never its last byte, which
    /// waits for the check of the whole.
    var readable: Int64 { get }
    /// Nil while the bytes still arrive; then the whole video, or why there is none (a store that
    /// failed, or bytes that do not match the post).
    var finished: Result<WholeVideo, RecorderError>? { get }
    /// Returns once more than `count` bytes are `readable`, the arrival has ended, `limit` has
    /// passed, or the task is cancelled.
    func wait(beyond count: Int64, limit: Duration) async
}
