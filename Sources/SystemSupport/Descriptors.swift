import Glibc

/// Whole writes to file descriptors, retried on EINTR and short writes.
public enum Descriptors {
    /// Writes all of `bytes` to `fd`; the errno of the failure, or nil.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// Writes `text` to standard error, unbuffered (messages interleave with the progress line in order).
    public static func printError(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
