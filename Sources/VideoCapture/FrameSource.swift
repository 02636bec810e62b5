/// Something that produces frames on demand: a V4L2 device, the test pattern, a Y4M file.
///
/// The recording loop pulls: each call waits for the next frame, lends it to `body`, and gives the
/// buffer back to the source afterwards. A live camera keeps filling its own queue meanwhile, so a
/// slow consumer shows up as dropped frames (sequence gaps), never as unbounded memory.
public protocol FrameSource: AnyObject {
    /// What the frames look like, fixed once the source is open.
    var format: CaptureFormat { get }
    /// A short human name: "/dev/video0 (vivid)", "test pattern", "clip.y4m".
    var name: String { get }
    /// Waits for the next frame and lends it to `body`. Returns false at the end of a finite source,
    /// or when `stop` was signalled while waiting.
    func nextFrame(stop: StopSignal, _ body: (VideoFrame) throws -> Void) throws -> Bool
    /// Stops streaming and releases the device. Called once; safe after a failure.
    func close()
}
