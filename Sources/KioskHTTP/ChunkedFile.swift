import Glibc
package import Hummingbird
package import NIOCore
import SystemSupport

/// A file range sent as a response body one chunk at a time: a chunk is read (on a pool of its own,
/// so a slow disk never holds up the kiosk's status or camera probes) only once the socket has
/// taken the last one (`SocketPace`), into the same buffer each time. So a viewer who stops reading
/// holds one chunk of the kiosk's memory, and its socket's fixed send buffer, never the file read
/// ahead: NIO's file chunks read eight 128 KiB chunks ahead of the writer (2 MiB a slow reader), and
/// waiting only for the previous write call let a busy kiosk queue 4.3 MiB for each reader that
/// never read (Tests/security/stalled_readers.py).
package enum ChunkedFile {
    /// The most a read takes at once.
    static let chunk = 64 * 1024
    /// Video reads: two threads, enough for a page-cached file and a Raspberry Pi's SD card alike.
    static let readers = BlockingWork(name: "recorder-video", threads: 2)

    /// Why a file could not be sent to its end.
    struct ReadFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The body for bytes `range` of the file at `path`, holding `keep` (a viewer's place) until
    /// the last byte is written, paced by `connection`'s socket. The file is opened when the body starts.
    static func body(path: String, range: ClosedRange<Int>, keep: (any Sendable)?, connection: (any Channel)?) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            _ = keep
            let pace = await SocketPace.handle(of: connection)
            let file = try await readers.run { () throws(ReadFailed) -> Descriptor in try Descriptor(path) }
            defer { file.close() }
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let (at, count) = (offset, min(chunk, range.upperBound + 1 - offset))
                let bytes = try await readers.run { () throws(ReadFailed) -> ByteBuffer in try file.read(at: at, count: count) }
                offset += bytes.readableBytes
                try await send(bytes, to: &writer, pace: pace)
            }
            try await writer.finish(nil)
        }
    }

    /// Writes `bytes` and returns once the socket has taken them (without a pace, once the write
    /// is queued): only then may the next chunk be read.
    package static func send(_ bytes: ByteBuffer, to writer: inout any ResponseBodyWriter, pace: SocketPace.Handle?) async throws {
        try await writer.write(bytes)
        try await pace?.taken()
    }

    /// An open file of one response's loop, and the one buffer its chunks are read into.
    /// `@unchecked Sendable`: its descriptor is read one awaited read at a time, never from two
    /// threads at once, and closed by the same loop after its last read.
    final class Descriptor: @unchecked Sendable {
        private var fd: Int32
        /// Read into again for each chunk: once the socket took the last chunk, NIO has let go of
        /// it and this is the buffer's only owner (else writing into it makes a copy, as it must).
        private var buffer = ByteBufferAllocator().buffer(capacity: chunk)

        init(_ path: String) throws(ReadFailed) {
            do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDONLY | O_CLOEXEC) } catch {
                throw ReadFailed(description: "cannot open \(path): \(error.description)")
            }
        }

        func read(at offset: Int, count: Int) throws(ReadFailed) -> ByteBuffer {
            buffer.clear()
            let fd = self.fd
            var result: Result<Int, Descriptors.Errno> = .success(0)
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
                do throws(Descriptors.Errno) {
                    let got = try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<count]), at: Int64(offset))
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
            // (only read: nothing is lost when its close fails)
            if fd >= 0 { Posix.closeAfterUse(fd) }
            fd = -1
        }
    }
}
