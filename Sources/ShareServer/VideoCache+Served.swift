package import KioskHTTP
package import Library
package import Failures

// The video cache's lookups as the HTTP plumbing answers them (KioskHTTP does not link the store).
extension VideoCache.Arrival: ArrivingVideo {
    package var finished: Result<WholeVideo, RecorderError>? { outcome.map { $0.map(WholeVideo.init) } }
}

extension WholeVideo {
    init(_ video: VideoCache.Video) { self.init(path: video.path, bytes: video.bytes) }
}

extension ServedVideo {
    package init(_ lookup: VideoCache.Lookup) {
        switch lookup {
        case .cached(let video): self = .whole(WholeVideo(video))
        case .arriving(let arrival): self = .arriving(arrival)
        }
    }
}
