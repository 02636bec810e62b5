import Glibc

/// errno as a typed error, and whole writes to the standard outputs (`Posix` makes the calls).
package enum Descriptors {
    /// Writes all of `bytes` to `fd` (`Posix.writeAll`); the errno of the failure, or nil: for a
    /// caller that keeps the failure as a value (a C callback that can only return a status).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        do throws(Errno) { try Posix.writeAll(fd, bytes) } catch { return error.code }
        return nil
    }

    /// An errno value captured at the call that failed.
    package struct Errno: Error, Sendable, Equatable, Encodable {
        package var code: Int32
        package init(_ code: Int32) { self.code = code }
        package var description: String { String(cString: strerror(code)) }
    }

    /// Writes `text` to standard output at once (`print` holds it in stdio's buffer until exit
    /// when the output is a pipe or a file, so a live line would arrive all at the end).
    package static func printOutput(_ text: String) {
        var text = text
        // An output nobody reads any more (a closed pipe) has nowhere to be told so.
        _ = text.withUTF8 { writeAll(1, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` to standard error, unbuffered (messages interleave with the progress line in order).
    package static func printError(_ text: String) {
        var text = text
        // As for printOutput: a closed standard error has nowhere to be told so.
        _ = text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
