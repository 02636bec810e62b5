package import ShareServer
import Posting
import Failures

extension SharedPosts {
    /// A boomerang's GIF made by the encoder (Posting's `VideoCache.loopGIF`), which the kiosk and
    /// `recorder serve` hand to the share routes (ShareServer links no encoder).
    package static let encodedGIF: LoopGIFMaker = { cache, metadata, queued, store throws(RecorderError) in
        try cache.loopGIF(for: metadata, queued: queued, from: store)
    }
}
