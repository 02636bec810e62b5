import MediaEncoder
import MediaValues
package import Publishing

/// A posted video's poster as the booth makes it: a JPEG of its picture about a second in, at most
/// 640 wide (`PosterFrame`), for the outbox's uploader and the feed's reindex, which link no encoder.
package enum Posters {
    package static let jpeg: PosterMaker = { path throws(MediaError) in try PosterFrame.jpeg(ofVideoAt: path) }
}
