import Synchronization
package import VideoCapture

/// Every frame the camera delivered since the kiosk started, counted as it arrives (the live
/// preview's and the shots' alike): how many, how many it dropped (gaps in its frame count), and
/// how long it streamed, from the frames' own timestamps. The kiosk takes the difference of two
/// readings a minute apart for its heartbeat and its metrics.
package final class FrameTally: Sendable {
    package struct Counts: Sendable, Equatable {
        package var delivered: Int = 0
        package var dropped: Int = 0
        /// Time between consecutive frames, added up: the time the camera streamed.
        package var streamingMicroseconds: Int64 = 0
        /// Frames that followed another within `longestGapMicroseconds` (each added its gap to
        /// `streamingMicroseconds`): divided by it, the rate while streaming.
        package var pacedFrames: Int = 0
        /// The rate the camera was asked for, from its last frame's format; nil before the first.
        package var nominalFPS: Double?

        package init(delivered: Int = 0, dropped: Int = 0, streamingMicroseconds: Int64 = 0, pacedFrames: Int = 0, nominalFPS: Double? = nil) {
            self.delivered = delivered
            self.dropped = dropped
            self.streamingMicroseconds = streamingMicroseconds
            self.pacedFrames = pacedFrames
            self.nominalFPS = nominalFPS
        }
    }

    /// A longer pause between two frames is the camera closed and opened again, not streaming.
    static let longestGapMicroseconds: Int64 = 1_000_000

    private let state = Mutex<(counts: Counts, last: FrameStamp?)>((Counts(), nil))

    package init() {}

    /// One frame delivered, stamped `stamp`, by a camera asked for `nominalFPS`.
    package func count(_ stamp: FrameStamp, nominalFPS: Double) {
        state.withLock { state in
            state.counts.delivered += 1
            state.counts.nominalFPS = nominalFPS
            if let last = state.last {
                let gap = stamp.timestampMicroseconds - last.timestampMicroseconds
                // (a count that goes back or a long pause is another opening of the camera: no gap to count)
                if gap > 0 && gap <= Self.longestGapMicroseconds {
                    state.counts.streamingMicroseconds += gap
                    state.counts.pacedFrames += 1
                    if stamp.sequence > last.sequence + 1 { state.counts.dropped += Int(stamp.sequence - last.sequence - 1) }
                }
            }
            state.last = stamp
        }
    }

    package var counts: Counts { state.withLock { $0.counts } }
}
