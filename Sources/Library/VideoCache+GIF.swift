import Glibc
import MediaEncoder
package import StorageUpload
package import Settings
package import Publishing
import SystemSupport

extension VideoCache {
    /// A boomerang's GIF, named by its video's SHA-256.
    static let gifSuffix = ".loop.gif"

    /// The animated GIF of post `metadata`'s video (a boomerang's: the copy `queued` in this
    /// kiosk's outbox, else the cache's of `store`'s), 480 wide with a palette of its own
    /// (`LoopGIF`): made on the first request, then kept in the disk level beside the videos,
    /// counted and evicted as they are. Blocks while it is made.
    package func loopGIF(for metadata: PostMetadata, queued: String?, from store: any StorageBackend) throws(RecorderError) -> String {
        let video: String
        if let queued, FileSystem.status(of: queued) != nil {
            video = queued
        } else {
            video = try self.video(for: metadata, from: store).path
        }
        try prepare()
        let name = String(Self.name(forURL: store.url(forKey: metadata.key)).dropLast(4)) + Self.gifSuffix
        // (one maker at a time per GIF: a second request waits for the first one's file)
        let lock = try FileLock(path: "\(settings.directory)/.locks/\(name)", busy: nil)
        let made = try make(name, from: video)
        _ = consume lock
        return made
    }

    private func make(_ name: String, from video: String) throws(RecorderError) -> String {
        let final = path(name)
        if FileSystem.status(of: final).map({ $0.size > 0 }) == true {
            touch(final)
            return final
        }
        let temp = path(".tmp-\(name)-\(getpid())")
        do throws(MediaError) { _ = try LoopGIF.write(from: video, to: temp) } catch {
            // (a half-made GIF that cannot go now is a `.tmp-` name: the cache's clear removes it)
            try? Posix.unlink(temp)
            throw .media(error)
        }
        do throws(StorageError) {
            try LocalFiles.run("store", final, elsewhere: "another cache.path") { () throws(Descriptors.Errno) in try Posix.rename(temp, to: final) }
        } catch {
            // (as above)
            try? Posix.unlink(temp)
            throw .cache(.unusable(directory: settings.directory, error))
        }
        try evict(keeping: name)
        return final
    }
}
