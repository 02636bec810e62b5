package import Settings
package import Failures

/// Where a recording stands; sent after every frame.
package struct ShotProgress: Sendable {
    package var elapsedSeconds: Double
    package var totalSeconds: Double
    package var frames: Int
    package var dropped: Int
    /// The sound's level over the last ~100 ms (peak and RMS in dBFS); nil for a silent shot.
    package var soundLevel: SoundLevel? = nil
    /// Frames per second over the whole shot so far.
    package var framesPerSecond: Double {
        elapsedSeconds > 0 ? Double(frames) / elapsedSeconds : 0
    }
}

/// The outcome of `CameraManager.shoot`.
package struct ShotResult: Sendable {
    package var shot: Shot
    /// Set when the camera was lost mid-shot: the shot was kept, but the run did not go as asked.
    package var cameraLost: RecorderError?
    /// Set when the disk filled mid-shot: what fitted (whole fragments) was kept as the shot.
    package var diskFull: RecorderError? = nil
}
