/// One captured picture, borrowed from its source for the duration of a `FrameSource.nextFrame` call.
///
/// `bytes` points into the source's own buffer (a V4L2 mmap buffer, for instance) and is valid only
/// inside the closure that receives the frame: frames are converted or copied there, never kept.
public struct VideoFrame {
    public let format: CaptureFormat
    public let bytes: UnsafeRawBufferPointer
    /// Capture time in microseconds on the source's monotonic clock.
    public let timestampMicroseconds: Int64
    /// The driver's frame counter; gaps mean the driver dropped frames.
    public let sequence: UInt64
    /// True when the driver flagged the buffer as possibly corrupted (V4L2_BUF_FLAG_ERROR).
    public let isDamaged: Bool

    public init(format: CaptureFormat, bytes: UnsafeRawBufferPointer, timestampMicroseconds: Int64,
                sequence: UInt64, isDamaged: Bool = false) {
        self.format = format
        self.bytes = bytes
        self.timestampMicroseconds = timestampMicroseconds
        self.sequence = sequence
        self.isDamaged = isDamaged
    }

    /// When the frame was taken and its place in the count.
    public var stamp: FrameStamp { FrameStamp(timestampMicroseconds: timestampMicroseconds, sequence: sequence) }
}
