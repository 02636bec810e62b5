package import Library
package import Publishing
package import StorageUpload
package import Failures
import MediaEncoder
import MediaValues

extension VideoCache {
    /// The animated GIF of post `metadata`'s video (a boomerang's: the copy `queued` in this
    /// kiosk's outbox, else the cache's of `store`'s), 480 wide with a palette of its own
    /// (`LoopGIF`): made on the first request, then kept in the cache's disk level
    /// (`VideoCache.derived`). Blocks while it is made.
    package func loopGIF(for metadata: PostMetadata, queued: String?, from store: any StorageBackend) throws(RecorderError) -> String {
        try derived(Self.gifSuffix, for: metadata, queued: queued, from: store) { video, into throws(RecorderError) in
            do throws(MediaError) { _ = try LoopGIF.write(from: video, to: into) } catch { throw .media(error) }
        }
    }
}
