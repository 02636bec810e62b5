package import FoundationEssentials
package import HTTPTypes
package import Hummingbird
import NIOCore
import Settings
import SystemSupport
import KioskWords
import Failures

/// The answers of the kiosk's HTTP surface that are not about any one route: its one JSON style
/// (for answers and events alike), and bytes and files served with ranges, a chunk at a time.
package enum HTTPAnswer {
    /// The largest request body accepted (a caption is at most 2,200 characters).
    package static let maximumBody = 64 * 1024

    /// The one JSON style of the API and its events: compact, sorted keys, no escaped slashes.
    package static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A report's failures in the operator's words.
        encoder.userInfo[RecorderError.wordsKey] = RecorderError.Words { OperatorWords.message($0) }
        return encoder
    }

    package static func encoded(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        do {
            return jsonResponse(try jsonEncoder.encode(value), status: status)
        } catch {
            // Never an empty 200: the caller learns the answer could not be made. (Written out here:
            // an APIError's own body is encoded by this function.)
            let body = #"{"error":"the kiosk could not encode its answer as JSON (a bug: please report it).","kind":"internalFailure","status":500}"#
            return jsonResponse(Data(body.utf8), status: .internalServerError)
        }
    }

    package static func jsonResponse(_ data: Data, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// What a ranged answer will carry: its headers and status, the bytes to send, or the complete
    /// answer when there is no body to read (416, or an empty resource).
    package enum RangedAnswer {
        case body(status: HTTPResponse.Status, headers: HTTPFields, range: ClosedRange<Int>)
        case done(Response)
    }

    /// Single-range support (`bytes=a-b`, `bytes=a-`, `bytes=-n`) for a resource of `size` bytes, so a
    /// browser can seek.
    package static func ranged(size: Int, contentType: String, request: Request) -> RangedAnswer {
        ranged(size: size, contentType: contentType, rangeHeader: request.headers[.range])
    }

    /// As above, for the request's `Range` header's value (nil: the whole).
    package static func ranged(size: Int, contentType: String, rangeHeader: String?) -> RangedAnswer {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "no-store"
        var status = HTTPResponse.Status.ok
        var range = 0...max(size - 1, 0)
        if let header = rangeHeader {
            guard let asked = ByteRange.parse(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return .done(Response(status: .rangeNotSatisfiable, headers: headers))
            }
            range = asked
            status = .partialContent
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
        }
        headers[.contentLength] = String(size == 0 ? 0 : range.count)
        guard size > 0 else { return .done(Response(status: status, headers: headers)) }
        return .body(status: status, headers: headers, range: range)
    }

    /// Bytes in memory (the cache's memory level, a poster), with ranges: written a chunk at a time
    /// as the client's socket takes them (`SocketPace`), never copied whole for a response (three
    /// hundred slow readers of one video hold one copy of it, not three hundred, and a chunk each).
    /// `slot` is held until the last byte.
    package static func serveBytes(_ bytes: Data, contentType: String, request: Request, context: KioskRequestContext,
                           slot: ClientSlots.Slot? = nil) -> Response {
        switch ranged(size: bytes.count, contentType: contentType, request: request) {
        case .done(let response): return response
        case .body(let status, let headers, let range):
            let connection = context.connection
            return Response(status: status, headers: headers, body: ResponseBody(contentLength: range.count) { writer in
                _ = slot
                let pace = await SocketPace.handle(of: connection)
                // One buffer, filled again once the socket took it (then this is its only owner).
                var buffer = ByteBufferAllocator().buffer(capacity: min(ChunkedFile.chunk, range.count))
                var offset = range.lowerBound
                while offset <= range.upperBound {
                    let end = min(offset + ChunkedFile.chunk, range.upperBound + 1)
                    buffer.clear()
                    buffer.writeBytes(bytes[offset..<end])
                    offset = end
                    try await ChunkedFile.send(buffer, to: &writer, pace: pace)
                }
                try await writer.finish(nil)
            })
        }
    }

    /// A file, with ranges; `slot` is held until the last byte.
    package static func serveFile(_ path: String, contentType: String, request: Request, context: KioskRequestContext,
                          missing: String, slot: ClientSlots.Slot? = nil) async throws(APIError) -> Response {
        guard let size = FileSystem.status(of: path).map({ Int($0.size) }) else {
            throw APIError(.recorder(.notFound), missing)
        }
        switch ranged(size: size, contentType: contentType, request: request) {
        case .done(let response): return response
        case .body(let status, let headers, let range):
            return Response(status: status, headers: headers,
                            body: ChunkedFile.body(path: path, range: range, keep: slot, connection: context.connection))
        }
    }
}
