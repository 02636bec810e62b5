internal import CCurl
#if canImport(Glibc)
import Glibc
#endif
import StoreValues
import SystemSupport

/// One ranged GET whose body is received straight into the taker's pieces (`ObjectStream`).
/// libcurl connects (the name, TCP, TLS and its checks, the connect timeout: CURLOPT_CONNECT_ONLY);
/// the request is a presigned URL's, so it carries no header but Host and Range, and no user text;
/// each byte of the body is read by `curl_easy_recv` into the piece being filled. `CurlStream` gets
/// the same bytes through libcurl's write callback, which copies each once more: a sixth of
/// `recorder serve`'s CPU in a gallery's Download all. Only an answer with the range's bytes and a
/// length (a 206 from its first byte, or a 200 for a range from 0) with no transfer coding is read
/// here; `S3Backend.ask` leaves every other answer (an error, a 404, a 416, a store's other
/// ways) to `CurlStream`, which reads them all.
///
/// Passed on to a connection's socket (`pass`, a host's Download all), the body of a plain (http)
/// answer goes from this socket to that one in the kernel (`SocketSink`), never into the process.
///
/// Between two pieces nothing is read: the bytes wait in the socket and TCP holds the store back.
/// Releasing the stream closes its connection. No byte for the stall timeout fails it, as libcurl's
/// low-speed limit fails a transfer.
final class DirectStream: ObjectStream {
    private let handle: CurlHandle
    private let socket: Int32
    /// The object's address, without the link's query.
    private let url: String
    private let stallSeconds: Int
    /// Body bytes that came with the answer's head, not yet handed over.
    private var early: [UInt8]
    /// The body's bytes still in the socket.
    private var left: Int64

    /// How much of the body must be in the socket before a wait for it ends (SO_RCVLOWAT; at most
    /// what is still wanted, so the last bytes never wait for more that will not come): a wake-up
    /// per 2 MiB, not per packet. A 1 GiB Download all: 0.89x curl's speed with 256 KiB, 0.90x
    /// with 1 MiB, 0.93x with 2 MiB (13 paired rounds).
    static let lowWater = 2 << 20
    /// SO_RCVLOWAT as last set (the kernel's default is 1).
    private var lowWaterSet: Int32 = 1
    /// The most of an answer's head read before it is left to libcurl.
    static let headLimit = 64 << 10

    /// What the answer's head said: nil until `answered` read it.
    private var readHere: Bool?
    private let range: ClosedRange<Int64>
    /// The SHA-256 the store keeps with the object, as its answer said it (`ObjectStream`).
    private(set) var keptSHA256: String?
    /// Whether the socket carries the body as it is (http, no TLS): then `pass` splices it.
    private let plain: Bool

    /// Sends the GET of bytes `range` of the object at `url` (presigned: its origin, then `target`,
    /// the path and query); its answer is read by `answered`.
    init(url: String, target: String, host: String, range: ClosedRange<Int64>, settings: TransferSettings) throws(StorageError) {
        handle = try CurlHandle()
        // (the link's signature stays out of any failure's words)
        self.url = String(url.prefix { $0 != "?" })
        plain = url.lowercased().hasPrefix("http://")
        stallSeconds = max(settings.stallTimeoutSeconds, 1)
        socket = try handle.connect(to: url, settings: settings)
        early = []
        left = 0
        let request = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nRange: bytes=\(range.lowerBound)-\(range.upperBound)\r\n"
            + "User-Agent: recorder\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n"
        self.range = range
        try send(Array(request.utf8))
    }

    /// Reads the answer's head (once): whether its body is the range's, read here; else the
    /// answer is left to `CurlStream`, asked anew.
    func answered() throws(StorageError) -> Bool {
        if let readHere { return readHere }
        guard let (head, rest) = try readHead(), let length = Self.bodyLength(head, range: range) else {
            readHere = false
            return false
        }
        keptSHA256 = Self.parsed(head)?.fields["x-amz-meta-sha256"]
        left = length
        early = Array(rest.prefix(Int(min(length, Int64(rest.count)))))
        left -= Int64(early.count)
        readHere = true
        return true
    }

    func next(limit: Int) throws(StorageError) -> [UInt8]? {
        try .filled(limit: limit) { (piece) throws(StorageError) in try next(into: piece) }
    }

    func next(into destination: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        guard try answered() else { return 0 }
        var filled = 0
        if !early.isEmpty, destination.count > 0 {
            filled = min(early.count, destination.count)
            early.withUnsafeBytes { destination.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: filled) }
            early.removeFirst(filled)
        }
        while filled < destination.count, left > 0 {
            let want = Int(min(Int64(destination.count - filled), left))
            let count = try receive(into: UnsafeMutableRawBufferPointer(rebasing: destination[filled..<(filled + want)]),
                                    atLeast: min(Self.lowWater, want))
            guard count > 0 else {
                throw CurlHandle.transportError(code: Int(CURLE_PARTIAL_FILE.rawValue),
                                                detail: "the store closed the connection with \(left) bytes of the answer to come", url: url)
            }
            filled += count
            left -= Int64(count)
        }
        return filled
    }

    /// The body's bytes from the store's socket into `sink`'s in the kernel (`SocketSink`), `seen`
    /// shown a copy of each on the way; through TLS, read and written as `copy` does.
    func pass(_ count: Int, to sink: SocketSink, seen: ((UnsafeRawBufferPointer) -> Bool)?) throws(StorageError) -> Int {
        guard try answered() else { return 0 }
        guard plain else { return try copy(count, to: sink, seen: seen) }
        var moved = 0
        if !early.isEmpty, count > 0 {
            let some = min(early.count, count)
            let sent = early.withUnsafeBytes { (bytes) -> Bool in
                let part = UnsafeRawBufferPointer(rebasing: bytes[..<some])
                return (seen?(part) ?? true) && sink.write(part)
            }
            guard sent else { return 0 }
            early.removeFirst(some)
            moved = some
        }
        var quiet = 0
        while moved < count, left > 0 {
            let want = Int(min(Int64(count - moved), left))
            let taken: Int?
            do throws(Descriptors.Errno) { taken = try sink.take(from: socket, count: want) } catch {
                throw CurlHandle.transportError(code: Int(CURLE_RECV_ERROR.rawValue), detail: error.description, url: url)
            }
            guard let taken else {
                if try !ready(for: POLLIN, atLeast: min(Self.lowWater, want)) { try stalled(&quiet) }
                continue
            }
            if sink.failure != nil { break }
            guard taken > 0 else {
                throw CurlHandle.transportError(code: Int(CURLE_PARTIAL_FILE.rawValue),
                                                detail: "the store closed the connection with \(left) bytes of the answer to come", url: url)
            }
            quiet = 0
            if let seen {
                guard let shown = sink.look() else {
                    sink.discard()
                    throw CurlHandle.transportError(code: Int(CURLE_RECV_ERROR.rawValue), detail: "the bytes could not be copied for their check", url: url)
                }
                guard seen(shown) else {
                    sink.discard()
                    break
                }
            }
            guard sink.flush() else { break }
            moved += taken
            left -= Int64(taken)
        }
        return moved
    }

    /// The answer's head (up to its blank line, as text) and the body's bytes that came with it;
    /// nil when it is longer than `headLimit`.
    private func readHead() throws(StorageError) -> (head: String, rest: ArraySlice<UInt8>)? {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)
        defer { chunk.deallocate() }
        let blank: [UInt8] = [13, 10, 13, 10]
        while bytes.count <= Self.headLimit {
            let count = try receive(into: chunk)
            guard count > 0 else {
                throw CurlHandle.transportError(code: Int(CURLE_GOT_NOTHING.rawValue), detail: "the store closed the connection before its answer ended", url: url)
            }
            // (the blank line may straddle two reads)
            let from = max(bytes.count - 3, 0)
            bytes += UnsafeRawBufferPointer(rebasing: chunk[..<count])
            if let end = bytes[from...].firstRange(of: blank) {
                return (String(decoding: bytes[..<end.lowerBound], as: UTF8.self), bytes[end.upperBound...])
            }
        }
        return nil
    }

    /// An answer's head: its status and its fields (names in lower case); nil when it is not one
    /// read here (not HTTP/1, a line without a colon, a field said twice).
    static func parsed(_ head: String) -> (status: Int, fields: [String: String])? {
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return nil }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else { return nil }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            // (a field said twice, as a length said twice, is not an answer read here)
            guard fields[name] == nil else { return nil }
            fields[name] = String(value.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
        }
        return (status, fields)
    }

    /// How many bytes of the body are the range's, when `head` answers with them as read here.
    static func bodyLength(_ head: String, range: ClosedRange<Int64>) -> Int64? {
        guard let (status, fields) = parsed(head) else { return nil }
        guard fields["transfer-encoding"] == nil, let text = fields["content-length"], let length = Int64(text),
              text.allSatisfy(\.isASCII), length >= 0 else { return nil }
        switch status {
        case 206:
            // "bytes FIRST-LAST/SIZE": from the range's first byte, no further than its last.
            guard let spec = fields["content-range"], spec.hasPrefix("bytes ") else { return nil }
            let bounds = spec.dropFirst(6).split(separator: "/")[0].split(separator: "-")
            guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
                  first == range.lowerBound, last >= first, last - first + 1 == length, length <= Int64(range.count) else { return nil }
            return length
        case 200 where range.lowerBound == 0:
            // The whole object for a range from its start: the range's part of it.
            return min(length, Int64(range.count))
        default:
            return nil
        }
    }

    private func send(_ bytes: [UInt8]) throws(StorageError) {
        var sent = 0, quiet = 0
        while sent < bytes.count {
            let (count, code) = bytes.withUnsafeBytes { handle.send(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
            if code == CURLE_AGAIN {
                if try !ready(for: POLLOUT) { try stalled(&quiet) }
                continue
            }
            guard code == CURLE_OK else { throw handle.failure(code, url: url) }
            (sent, quiet) = (sent + count, 0)
        }
    }

    /// Bytes into `buffer`, waiting for the socket when there are none yet (until it has
    /// `atLeast`, or a second has passed): how many (0: closed).
    private func receive(into buffer: UnsafeMutableRawBufferPointer, atLeast: Int = 1) throws(StorageError) -> Int {
        var quiet = 0
        while true {
            let (count, code) = handle.receive(into: buffer)
            if code == CURLE_OK { return count }
            guard code == CURLE_AGAIN else { throw handle.failure(code, url: url) }
            // (CURLE_AGAIN: libcurl, TLS included, holds none of the answer's bytes, and none came
            // since the last look; bytes under the mark after a second are taken above: a slow
            // store is slow, not stalled)
            if try !ready(for: POLLIN, atLeast: atLeast) { try stalled(&quiet) }
        }
    }

    /// Counts a second in which nothing moved; the stall timeout's worth of them fails the stream.
    private func stalled(_ quiet: inout Int) throws(StorageError) {
        quiet += 1
        guard quiet >= stallSeconds else { return }
        throw CurlHandle.transportError(code: Int(CURLE_OPERATION_TIMEDOUT.rawValue), detail: "no byte moved in \(stallSeconds) s", url: url)
    }

    /// Whether, within a second, the socket takes bytes (POLLOUT) or has `atLeast` bytes to read
    /// (POLLIN: SO_RCVLOWAT, which the kernel holds under half its largest receive buffer).
    private func ready(for events: Int32, atLeast: Int = 1) throws(StorageError) -> Bool {
        if events == POLLIN, Int32(atLeast) != lowWaterSet {
            var value = Int32(atLeast)
            // (refused: every wait ends at the first byte, as without it)
            if setsockopt(socket, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 { lowWaterSet = value }
        }
        var entry = pollfd(fd: socket, events: Int16(events), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, 1000) } while ready < 0 && errno == EINTR
        if ready < 0 {
            let failure = errno
            throw CurlHandle.transportError(code: Int(CURLE_RECV_ERROR.rawValue), detail: String(cString: strerror(failure)), url: url)
        }
        return ready > 0
    }
}
