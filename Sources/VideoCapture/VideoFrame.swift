/// One captured picture, borrowed from its source for the duration of a `FrameSource.nextFrame` call.
///
/// Its bytes are the source's own buffer (a V4L2 mmap buffer, for instance), valid only while the
/// source lends the frame. The compiler keeps it that way: the frame is `~Copyable` and handed over
/// `borrowing`, so it cannot be stored, and its bytes are reached only inside `withBytes`.
package struct VideoFrame: ~Copyable {
    package let format: CaptureFormat
    private let bytes: UnsafeRawBufferPointer
    /// Capture time in microseconds on the source's monotonic clock.
    package let timestampMicroseconds: Int64
    /// The driver's frame counter; gaps mean the driver dropped frames.
    package let sequence: UInt64
    /// True when the driver flagged the buffer as possibly corrupted (V4L2_BUF_FLAG_ERROR).
    package let isDamaged: Bool

    package init(format: CaptureFormat, bytes: UnsafeRawBufferPointer, timestampMicroseconds: Int64,
                sequence: UInt64, isDamaged: Bool = false) {
        self.format = format
        self.bytes = bytes
        self.timestampMicroseconds = timestampMicroseconds
        self.sequence = sequence
        self.isDamaged = isDamaged
    }

    /// The picture's bytes, for the length of `body` (converted or copied there, never kept).
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(bytes)
    }

    /// How many bytes the picture has.
    package var byteCount: Int { bytes.count }

    /// When the frame was taken and its place in the count.
    package var stamp: FrameStamp { FrameStamp(timestampMicroseconds: timestampMicroseconds, sequence: sequence) }
}
