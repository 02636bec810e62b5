import Glibc
import Hummingbird
import NIOCore
import SystemSupport

/// A file range sent as a response body one chunk at a time: a chunk is read (on a pool of its own,
/// so a slow disk never holds up the kiosk's status or camera probes) only once the last one has
/// been handed to a connection that could take it. So a viewer who reads slowly costs one chunk and
/// the connection's write buffer, never the file read ahead: NIO's file chunks read eight 128 KiB
/// chunks ahead of the writer, which was 2 MiB of memory per slow reader of a share link (300 such
/// readers: Tests/security/exhaustion.py).
enum ChunkedFile {
    /// The most a read takes at once.
    static let chunk = 64 * 1024
    /// Video reads: two threads, enough for a page-cached file and a Raspberry Pi's SD card alike.
    static let readers = BlockingWork(name: "recorder-video", threads: 2)

    /// Why a file could not be sent to its end.
    struct ReadFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The body for bytes `range` of the file at `path`, holding `keep` (a viewer's place) until
    /// the last byte is written. The file is opened when the body starts.
    static func body(path: String, range: ClosedRange<Int>, keep: (any Sendable)?) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            _ = keep
            let file = try await readers.run { () throws(ReadFailed) -> Descriptor in try Descriptor(path) }
            defer { file.close() }
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let (at, count) = (offset, min(chunk, range.upperBound + 1 - offset))
                let bytes = try await readers.run { () throws(ReadFailed) -> ByteBuffer in try file.read(at: at, count: count) }
                try await writer.write(bytes)
                offset += bytes.readableBytes
            }
            try await writer.finish(nil)
        }
    }

    /// An open file of one response's loop.
    /// `@unchecked Sendable`: its descriptor is read one awaited read at a time, never from two
    /// threads at once, and closed by the same loop after its last read.
    final class Descriptor: @unchecked Sendable {
        private var fd: Int32

        init(_ path: String) throws(ReadFailed) {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ReadFailed(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        }

        func read(at offset: Int, count: Int) throws(ReadFailed) -> ByteBuffer {
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let fd = self.fd
            var result: Result<Int, Descriptors.Errno> = .success(0)
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
                do throws(Descriptors.Errno) {
                    let got = try SystemCall.run { pread(fd, raw.baseAddress, count, off_t(offset)) }
                    result = .success(got)
                    return got
                } catch {
                    result = .failure(error)
                    return 0
                }
            }
            switch result {
            case .failure(let error): throw ReadFailed(description: "the file could not be read: \(error)")
            case .success(0): throw ReadFailed(description: "the file ended early")
            case .success: return buffer
            }
        }

        func close() {
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
    }
}
