import FoundationEssentials
import Glibc
import HTTPTypes
package import Hummingbird
import NIOCore
import SystemSupport
import Settings
import KioskWords

/// Answers a request for a posted video: from the cache as it is, or, for a video still arriving
/// from the store, as its bytes come (a faststart MP4 starts playing at once), ranges included: a
/// range answers from what has arrived, or waits for it. The last byte goes out only once the whole
/// file matched the post's size and SHA-256: a mismatch ends the response with an error (the
/// connection closes short of its Content-Length), so bad bytes never pass as a whole video.
package enum VideoResponder {
    /// `slot` (the viewer's place among the video answers) is held until the last byte is written.
    package static func response(_ served: ServedVideo, request: Request, context: KioskRequestContext,
                         slot: ClientSlots.Slot) async throws(APIError) -> Response {
        switch served {
        case .whole(let video):
            return try await serve(video, request: request, context: context, slot: slot)
        case .arriving(let arrival):
            await firstBytes(of: arrival)
            switch arrival.finished {
            case .success(let video): return try await serve(video, request: request, context: context, slot: slot)
            case .failure(let error): throw APIError(error)
            case nil: return streamed(arrival, request: request, slot: slot, connection: context.connection)
            }
        }
    }

    /// How long one sleep on an arriving video lasts at most. Every write of the download and its
    /// end wake a sleeper at once, so this is only a backstop; a stalled store still ends the
    /// response through its download, which fails at the store's stall limit
    /// (network.stall_timeout_seconds).
    static let waitLimit: Duration = .seconds(5)

    /// Returns once `arrival`'s first bytes can be read, or its fetch has ended (or the task is
    /// cancelled). The answer's status waits for the store's: only a 200's body is written, so a
    /// video the store does not have is a 404, never a 200 cut short.
    static func firstBytes(of arrival: any ArrivingVideo) async {
        while arrival.finished == nil, arrival.readable <= 0, !Task.isCancelled {
            await arrival.wait(beyond: 0, limit: waitLimit)
        }
    }

    private static func serve(_ video: WholeVideo, request: Request, context: KioskRequestContext,
                              slot: ClientSlots.Slot) async throws(APIError) -> Response {
        if let bytes = video.bytes {
            return HTTPAnswer.serveBytes(bytes, contentType: "video/mp4", request: request, context: context, slot: slot)
        }
        return try await HTTPAnswer.serveFile(video.path, contentType: "video/mp4", request: request, context: context,
                                            missing: "the cached video was removed meanwhile; ask again.", slot: slot)
    }

    /// Why a stream stopped short: the store failed, or its bytes did not match the post.
    struct ArrivalFailed: Error {
        var reason: String
    }

    /// The answer for `arrival` as its bytes come (from `firstBytes(of:)` on): a chunk as soon as it
    /// is written, a sleep while the store is slower than the viewer; the next chunk only once
    /// `connection`'s socket took the last (`SocketPace`).
    static func streamed(_ arrival: any ArrivingVideo, request: Request, slot: ClientSlots.Slot,
                         connection: (any Channel)? = nil) -> Response {
        let (status, headers, range): (HTTPResponse.Status, HTTPFields, ClosedRange<Int>)
        switch HTTPAnswer.ranged(size: Int(arrival.size), contentType: "video/mp4", request: request) {
        case .done(let response): return response
        case .body(let s, let h, let r): (status, headers, range) = (s, h, r)
        }
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            _ = slot
            let pace = await SocketPace.handle(of: connection)
            let file = ArrivingFile(arrival)
            defer { file.close() }
            var offset = range.lowerBound
            while offset <= range.upperBound {
                let (at, count) = (offset, min(ChunkedFile.chunk, range.upperBound + 1 - offset))
                let bytes = try await BlockingWork.run { () throws(ArrivalFailed) -> ByteBuffer? in try file.read(at: at, count: count) }
                guard let bytes else {
                    // Nothing new yet: the store is slower than the viewer; its next write (or its
                    // end) wakes this.
                    await arrival.wait(beyond: Int64(at), limit: waitLimit)
                    try Task.checkCancellation()
                    continue
                }
                offset += bytes.readableBytes
                try await ChunkedFile.send(bytes, to: &writer, pace: pace)
            }
            try await writer.finish(nil)
        })
    }

    /// The arriving file, opened once it exists (or the cached file, once renamed into place), and
    /// the one buffer its chunks are read into (as `ChunkedFile.Descriptor`'s).
    /// `@unchecked Sendable`: its descriptor belongs to one response's loop, which reads one chunk
    /// at a time, in order, each read on the blocking pool awaited before the next.
    private final class ArrivingFile: @unchecked Sendable {
        let arrival: any ArrivingVideo
        private var descriptor: Int32 = -1
        private var buffer = ByteBufferAllocator().buffer(capacity: ChunkedFile.chunk)

        init(_ arrival: any ArrivingVideo) { self.arrival = arrival }

        /// Up to `count` bytes at `offset`; nil when none have arrived there yet.
        func read(at offset: Int, count: Int) throws(ArrivalFailed) -> ByteBuffer? {
            // Read before the bytes are counted: an outcome seen first means every byte is in.
            let outcome = arrival.finished
            if case .failure(let error) = outcome { throw ArrivalFailed(reason: error.message) }
            if descriptor < 0 {
                descriptor = (try? Posix.open(arrival.path, O_RDONLY | O_CLOEXEC)) ?? -1
                if descriptor < 0, case .success(let video) = outcome { descriptor = (try? Posix.open(video.path, O_RDONLY | O_CLOEXEC)) ?? -1 }
                guard descriptor >= 0 else {
                    if outcome != nil { throw ArrivalFailed(reason: "the cached video went away") }
                    return nil
                }
            }
            let fd = descriptor
            let size: Int
            do throws(Descriptors.Errno) { size = Int(try Posix.status(of: fd).size) } catch {
                throw ArrivalFailed(reason: error.description)
            }
            // Until the whole file is checked, its last byte is held back.
            let available = outcome == nil ? min(size, Int(arrival.size) - 1) : size
            guard available > offset else {
                if outcome != nil { throw ArrivalFailed(reason: "the video is shorter than its post says") }
                return nil
            }
            let wanted = min(count, available - offset)
            var read: Result<Int, Descriptors.Errno> = .success(0)
            buffer.clear()
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { raw in
                do throws(Descriptors.Errno) {
                    let got = try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]), at: Int64(offset))
                    read = .success(got)
                    return got
                } catch {
                    read = .failure(error)
                    return 0
                }
            }
            switch read {
            case .success(0): throw ArrivalFailed(reason: "the file ended early")
            case .success: return buffer
            case .failure(let error): throw ArrivalFailed(reason: error.description)
            }
        }

        func close() {
            // (only read: nothing is lost when its close fails)
            if descriptor >= 0 { Posix.closeAfterUse(descriptor) }
            descriptor = -1
        }
    }
}
