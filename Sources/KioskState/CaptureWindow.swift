import Synchronization
package import Shooting

/// The camera's last minute, from readings of the kiosk's `FrameTally` taken at each heartbeat and
/// scrape: frames delivered and dropped, seconds streamed, and the rate while streaming. The
/// oldest reading kept is the newest at least a minute old, so the figures span a minute once
/// the kiosk has run that long (less before).
package final class CaptureWindow: Sendable {
    /// What a minute's difference of two readings says.
    package struct LastMinute: Sendable, Equatable {
        package var delivered: Int
        package var dropped: Int
        package var streamingSeconds: Double
        /// Frames a second while streaming; nil when the camera did not stream.
        package var fps: Double?
        package var nominalFPS: Double?
    }

    static let span = Duration.seconds(60)
    private let readings = Mutex<[(at: ContinuousClock.Instant, counts: FrameTally.Counts)]>([])

    package init() {}

    /// Takes the reading `counts` at `now` and answers for the minute before it.
    package func take(_ counts: FrameTally.Counts, at now: ContinuousClock.Instant) -> LastMinute {
        let base = readings.withLock { readings -> FrameTally.Counts in
            readings.append((now, counts))
            readings.sort { $0.at < $1.at }
            // The newest reading at least `span` old is the base; older ones are no longer needed.
            if let index = readings.lastIndex(where: { now - $0.at >= Self.span }), index > 0 {
                readings.removeFirst(index)
            }
            return readings[0].counts
        }
        let streaming = Double(counts.streamingMicroseconds - base.streamingMicroseconds) / 1_000_000
        let delivered = counts.delivered - base.delivered
        // (less than a second of streaming gives no rate worth telling)
        let fps = streaming >= 1 ? Double(counts.pacedFrames - base.pacedFrames) / streaming : nil
        return LastMinute(delivered: delivered, dropped: counts.dropped - base.dropped, streamingSeconds: streaming, fps: fps,
                          nominalFPS: counts.nominalFPS)
    }
}
