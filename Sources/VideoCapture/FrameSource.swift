package import SystemSupport
package import MediaValues

/// Something that produces frames on demand: a V4L2 device, the test pattern, a Y4M file.
///
/// The recording loop pulls: each call waits for the next frame, lends it to `body`, and gives the
/// buffer back to the source afterwards. A live camera keeps filling its own queue meanwhile, so a
/// slow consumer shows up as dropped frames (sequence gaps), never as unbounded memory.
package protocol FrameSource: AnyObject {
    /// What the frames look like, fixed once the source is open.
    var format: CaptureFormat { get }
    /// A short human name: "/dev/video0 (vivid)", "test pattern", "clip.y4m".
    var name: String { get }
    /// Waits for the next frame and lends it to `body`. Returns false at the end of a finite source,
    /// or when `stop` was signalled while waiting. What it throws is the source's own failure:
    /// `body` does not throw, so a consumer keeps its own failure and throws it afterwards.
    func nextFrame(stop: StopSignal, _ body: (borrowing VideoFrame) -> Void) throws(CaptureError) -> Bool
    /// Stops streaming and releases the device. Called once; safe after a failure.
    func close()
}

/// When a frame was taken, on the source's clock, and its place in the source's count.
package struct FrameStamp: Sendable, Hashable {
    /// Capture time in microseconds on the source's monotonic clock.
    package var timestampMicroseconds: Int64
    /// The source's frame counter; gaps mean frames were dropped.
    package var sequence: UInt64

    package init(timestampMicroseconds: Int64, sequence: UInt64) {
        self.timestampMicroseconds = timestampMicroseconds
        self.sequence = sequence
    }
}

/// Picture memory owned by the consumer, one start and row stride per plane, laid out as the
/// source's (planar) format.
package struct PlanarPicture {
    package var planes: [UnsafeMutablePointer<UInt8>]
    package var strides: [Int]

    package init(planes: [UnsafeMutablePointer<UInt8>], strides: [Int]) {
        self.planes = planes
        self.strides = strides
    }
}

/// A source that can read each frame straight into the consumer's picture, saving a frame buffer
/// and a copy: a file can, a camera (whose frames live in the driver's mapped buffers) cannot.
package protocol PlanarReadingSource: FrameSource {
    /// Reads the next frame into `picture`, which must have a plane, with rows at least as wide as
    /// the format's, for each of `format.pixelFormat.planeSizes`. Returns nil at the end of a
    /// finite source, or when `stop` was signalled.
    func readFrame(into picture: PlanarPicture, stop: StopSignal) throws(CaptureError) -> FrameStamp?
}
