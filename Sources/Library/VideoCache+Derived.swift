import Glibc
package import StorageUpload
package import Settings
package import Publishing
package import Failures
import StoreValues
import DurableFiles
import SystemSupport

extension VideoCache {
    /// A boomerang's GIF (`VideoCache.loopGIF`, Posting), named by its video's key.
    package static let gifSuffix = ".loop.gif"

    /// A file `make` makes from post `metadata`'s video (the copy `queued` in this kiosk's outbox,
    /// else the cache's of `store`'s) into the temporary path it is given, named by the video's key
    /// and `suffix`: made on the first request, then kept in the disk level beside the videos,
    /// counted and evicted as they are. Blocks while it is made.
    package func derived(_ suffix: String, for metadata: PostMetadata, queued: String?, from store: any StorageBackend,
                         make: (_ video: String, _ into: String) throws(RecorderError) -> Void) throws(RecorderError) -> String {
        let video: String
        if let queued, FileSystem.status(of: queued) != nil {
            video = queued
        } else {
            video = try self.video(for: metadata, from: store).path
        }
        try prepare()
        let name = String(Self.name(forURL: store.url(forKey: metadata.key)).dropLast(4)) + suffix
        // (one maker at a time per file: a second request waits for the first one's file)
        let lock = try FileLock(path: "\(settings.directory)/.locks/\(name)", busy: nil)
        let made = try derive(name, from: video, make: make)
        _ = consume lock
        return made
    }

    private func derive(_ name: String, from video: String, make: (String, String) throws(RecorderError) -> Void) throws(RecorderError) -> String {
        let final = path(name)
        if FileSystem.status(of: final).map({ $0.size > 0 }) == true {
            touch(final)
            return final
        }
        let temp = path(".tmp-\(name)-\(Posix.processID)")
        do {
            try make(video, temp)
        } catch {
            // (a half-made file that cannot go now is a `.tmp-` name: the cache's clear removes it)
            try? Posix.unlink(temp)
            throw error
        }
        do throws(StorageError) {
            try LocalFiles.run("store", final, elsewhere: .cache) { () throws(Descriptors.Errno) in try Posix.rename(temp, to: final) }
        } catch {
            // (as above)
            try? Posix.unlink(temp)
            throw .cache(.unusable(directory: settings.directory, error))
        }
        try evict(keeping: name)
        return final
    }
}
