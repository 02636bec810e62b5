import Glibc

/// Whole writes to file descriptors, retried on EINTR and short writes.
package enum Descriptors {
    /// Writes all of `bytes` to `fd`; the errno of the failure, or nil.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
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

    /// Reads `fd` to its end, at most `limit` bytes; the bytes, or the errno of the failure
    /// (EFBIG when there is more than `limit`).
    package static func readAll(_ fd: Int32, limit: Int) -> Result<[UInt8], Errno> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(errno))
            }
            if n == 0 { return .success(bytes) }
            bytes += chunk[0..<n]
            if bytes.count > limit { return .failure(Errno(EFBIG)) }
        }
    }

    /// An errno value captured at the call that failed.
    package struct Errno: Error, Sendable, Equatable {
        package var code: Int32
        package init(_ code: Int32) { self.code = code }
        package var description: String { String(cString: strerror(code)) }
    }

    /// Copies everything from `source` to `destination` (files, pipes); the errno of the failure, or nil.
    package static func copyAll(from source: Int32, to destination: Int32) -> Int32? {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return nil }
            if let failed = chunk.withUnsafeBytes({ writeAll(destination, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) { return failed }
        }
    }

    /// Writes `text` to standard error, unbuffered (messages interleave with the progress line in order).
    /// Writes `text` to standard output at once (`print` holds it in stdio's buffer until exit
    /// when the output is a pipe or a file, so a live line would arrive all at the end).
    package static func printOutput(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(1, UnsafeRawBufferPointer($0)) }
    }

    package static func printError(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
