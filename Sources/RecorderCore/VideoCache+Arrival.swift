import FoundationEssentials
import Synchronization

extension VideoCache {
    /// A video on its way from the store into the cache, to be read while it arrives: its bytes
    /// land in `path` (a temporary file, renamed into the cache once its size and SHA-256 match
    /// the post's; an open descriptor still reads it afterwards) until `outcome` says how it ended.
    package final class Arrival: Sendable {
        /// Where the bytes are written as they come (it may not exist yet).
        package let path: String
        /// How many bytes the whole video has (the post's `byteSize`).
        package let size: Int64
        private let ending = Mutex<Result<Video, RecorderError>?>(nil)

        init(path: String, size: Int64) {
            self.path = path
            self.size = size
        }

        /// Nil while the bytes still arrive; then the cached video, or why there is none (a store
        /// that failed, or bytes that do not match the post).
        package var outcome: Result<Video, RecorderError>? { ending.withLock { $0 } }

        func end(_ outcome: Result<Video, RecorderError>) {
            ending.withLock { $0 = outcome }
        }
    }
}
