/// Where a recording stands; sent after every frame.
public struct ShotProgress: Sendable {
    public var elapsedSeconds: Double
    public var totalSeconds: Double
    public var frames: Int
    public var dropped: Int
    /// Frames per second over the whole shot so far.
    public var framesPerSecond: Double {
        elapsedSeconds > 0 ? Double(frames) / elapsedSeconds : 0
    }
}

/// The outcome of `CameraManager.shoot`.
public struct ShotResult: Sendable {
    public var shot: Shot
    /// Set when the camera was lost mid-shot: the shot was kept, but the run did not go as asked.
    public var cameraLost: RecorderError?
    /// Set when the disk filled mid-shot: what fitted (whole fragments) was kept as the shot.
    public var diskFull: RecorderError? = nil
}
