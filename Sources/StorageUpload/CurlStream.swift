internal import CCurl
import StoreValues

/// One GET whose body is taken a piece at a time as it arrives (`ObjectStream`), driven on the
/// taker's thread through a multi handle of its own: no thread waits for it, and between two pieces
/// the transfer is paused, so its bytes wait in the socket and TCP holds the store back. A taker who
/// stops taking holds at most a piece and one chunk of libcurl's; releasing the stream ends the
/// transfer and frees its handles.
final class CurlStream: ObjectStream {
    private let handle: CurlHandle
    private let multi: CurlMulti
    private let receiver: BodyReceiver
    private var transfer: CurlHandle.Transfer?
    /// libcurl's result, once the transfer has ended.
    private var ended: CURLcode?
    private var paused = false

    /// How much libcurl reads from the socket at once (its default is 16 KiB).
    static let socketRead = 256 << 10

    /// A transfer `prepare` sets up on the stream's handle (with its receiver) for bytes `range`.
    init(range: ClosedRange<Int64>,
         prepare: (borrowing CurlHandle, BodyReceiver) throws(StorageError) -> CurlHandle.Transfer) throws(StorageError) {
        handle = try CurlHandle()
        multi = try CurlMulti()
        receiver = BodyReceiver(range: range)
        let transfer = try prepare(handle, receiver)
        // (a refused size leaves libcurl's default: slower, the same bytes)
        _ = ccurl_setopt_long(handle.handle, CURLOPT_BUFFERSIZE, Self.socketRead)
        self.transfer = transfer
        try multi.add(handle)
    }

    deinit {
        // Out of the multi handle before either is cleaned up; an unfinished transfer's connection closes.
        multi.remove(handle)
    }

    /// Moves the transfer until its answer's status is known: nil when its body is the range's
    /// bytes (they are taken with `next`), else the whole answer, ended (an error's, or a 404).
    func start() throws(StorageError) -> HTTPResponse? {
        while receiver.status == nil, ended == nil { try step() }
        if receiver.takes { return nil }
        while ended == nil { try step() }
        return try handle.finish(transfer!, code: ended!)
    }

    func next(limit: Int) throws(StorageError) -> [UInt8]? {
        receiver.want = max(limit, 1)
        if paused || receiver.paused {
            // (libcurl may hand the chunk it kept over at once, in this call)
            (paused, receiver.paused) = (false, false)
            // A transfer libcurl will not resume never moves again: it ends here, with libcurl's
            // reason, rather than leaving the loop below to poll a socket nothing reads.
            let resumed = ccurl_resume(handle.handle)
            if resumed != CURLE_OK { ended = resumed }
        }
        while receiver.buffer.count < receiver.want, ended == nil { try step() }
        if let ended, ended != CURLE_OK {
            // A transfer cut short: libcurl's words, as any other request's.
            _ = try handle.finish(transfer!, code: ended)
        }
        guard !receiver.buffer.isEmpty else { return nil }
        if ended == nil {
            // Nothing read until the next piece is asked.
            paused = ccurl_pause_receiving(handle.handle) == CURLE_OK
        }
        return receiver.piece()
    }

    /// Moves the transfer as far as it goes, then waits for the socket unless it ended or filled the piece.
    private func step() throws(StorageError) {
        try multi.perform()
        if let done = multi.nextFinished() {
            ended = done.code
        } else if receiver.status == nil || receiver.buffer.count < receiver.want {
            try multi.poll(milliseconds: 1000)
        }
    }
}

/// Where a `CurlStream`'s body goes as libcurl hands it over: kept until taken, up to the piece
/// asked for (then the transfer pauses). A store that answers a range with the whole object (200)
/// has the bytes before the range dropped; bytes past the range are never kept.
final class BodyReceiver {
    /// The answer's status, once its body began.
    private(set) var status: Int?
    /// Whether the body is the range's bytes (a 200 or 206).
    private(set) var takes = false
    private(set) var buffer: [UInt8] = []
    /// The piece asked for: at this many bytes the transfer pauses.
    var want = 0
    /// The transfer paused itself here.
    var paused = false
    private let first: Int64
    private var skip: Int64 = 0
    private var remaining: Int64

    init(range: ClosedRange<Int64>) {
        first = range.lowerBound
        remaining = Int64(range.count)
    }

    /// The status at the body's first byte: whether this body is taken.
    func begin(status: Int) -> Bool {
        self.status = status
        if status == 200 { skip = first }
        takes = status == 200 || status == 206
        return takes
    }

    /// Keeps `chunk`'s bytes of the range; false when the piece is already full (pause, and hand it over again later).
    func take(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard buffer.count < want else {
            paused = true
            return false
        }
        var bytes = chunk
        if skip > 0 {
            let dropped = Int(min(skip, Int64(bytes.count)))
            bytes = UnsafeRawBufferPointer(rebasing: bytes[dropped...])
            skip -= Int64(dropped)
        }
        let kept = Int(min(Int64(bytes.count), remaining))
        if buffer.capacity < want + kept { buffer.reserveCapacity(want + CurlStream.socketRead) }
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<kept]))
        remaining -= Int64(kept)
        return true
    }

    /// Up to `want` bytes, taken out; the rest stays for the next piece.
    func piece() -> [UInt8] {
        guard buffer.count > want else {
            defer { buffer = [] }
            return buffer
        }
        let rest = Array(buffer[want...])
        buffer.removeLast(buffer.count - want)
        defer { buffer = rest }
        return buffer
    }
}
