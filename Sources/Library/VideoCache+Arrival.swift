import FoundationEssentials
import Synchronization
internal import SystemSupport
package import Settings
package import Failures

extension VideoCache {
    /// A video on its way from the store into the cache, to be read while it arrives: its bytes
    /// land in `path` (a temporary file, renamed into the cache once its size and SHA-256 match
    /// the post's; an open descriptor still reads it afterwards) until `outcome` says how it ended.
    /// A reader that is ahead of the store sleeps in `wait(beyond:limit:)` until more comes.
    package final class Arrival: Sendable {
        /// Where the bytes are written as they come (it may not exist yet).
        package let path: String
        /// How many bytes the whole video has (the post's `byteSize`).
        package let size: Int64
        private let ending = Mutex<Result<Video, RecorderError>?>(nil)
        private let written = Atomic<Int64>(0)
        /// Signalled as bytes land in `path` and when the arrival ends.
        let changed = ChangeSignal()
        /// Calls of `wait(beyond:limit:)`: how often a reader found nothing new (tests count them).
        private let waited = Atomic<Int>(0)

        init(path: String, size: Int64) {
            self.path = path
            self.size = size
        }

        /// Nil while the bytes still arrive; then the cached video, or why there is none (a store
        /// that failed, or bytes that do not match the post).
        package var outcome: Result<Video, RecorderError>? { ending.withLock { $0 } }

        /// The bytes in `path` a reader may take while the video arrives: those written so far
        /// but the video's last byte, which waits for the check of the whole.
        package var readable: Int64 { min(written.load(ordering: .acquiring), size - 1) }

        /// Returns once more than `count` bytes are `readable`, the arrival has ended, `limit` has
        /// passed, or the task is cancelled: at once when one of them holds already.
        package func wait(beyond count: Int64, limit: Duration) async {
            waited.add(1, ordering: .relaxed)
            // (the count of changes is read before the state it guards: a change in between ends
            // the sleep at once, so none is missed)
            let seen = changed.generation
            guard readable <= count, outcome == nil, !Task.isCancelled else { return }
            await changed.wait(after: seen, timeout: limit)
        }

        /// How many times a reader has called `wait(beyond:limit:)`. Each call but a cancelled or
        /// timed-out one ends at a change later than the one before it ended at, so while no
        /// sleep reaches its limit there are at most as many as `changed` has counted.
        var waits: Int { waited.load(ordering: .relaxed) }

        /// The download has written `total` bytes into `path`.
        func arrived(_ total: Int64) {
            written.store(total, ordering: .releasing)
            changed.signal()
        }

        func end(_ outcome: Result<Video, RecorderError>) {
            ending.withLock { $0 = outcome }
            changed.signal()
        }
    }
}
