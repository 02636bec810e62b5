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
        try .filled(limit: limit) { (piece) throws(StorageError) in try next(into: piece) }
    }

    func next(into destination: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        receiver.fill(destination)
        defer { receiver.release() }
        if paused || receiver.paused {
            // (libcurl may hand the chunk it kept over at once, in this call)
            (paused, receiver.paused) = (false, false)
            // A transfer libcurl will not resume never moves again: it ends here, with libcurl's
            // reason, rather than leaving the loop below to poll a socket nothing reads.
            let resumed = ccurl_resume(handle.handle)
            if resumed != CURLE_OK { ended = resumed }
        }
        while !receiver.full, ended == nil { try step() }
        if let ended, ended != CURLE_OK {
            // A transfer cut short: libcurl's words, as any other request's.
            _ = try handle.finish(transfer!, code: ended)
        }
        if receiver.filled > 0, ended == nil {
            // Nothing read until the next piece is asked.
            paused = ccurl_pause_receiving(handle.handle) == CURLE_OK
        }
        return receiver.filled
    }

    /// Moves the transfer as far as it goes, then waits for the socket unless it ended or filled the piece.
    private func step() throws(StorageError) {
        try multi.perform()
        if let done = multi.nextFinished() {
            ended = done.code
        } else if receiver.status == nil || !receiver.full {
            try multi.poll(milliseconds: 1000)
        }
    }
}

/// Where a `CurlStream`'s body goes as libcurl hands it over: straight into the piece being
/// filled (`fill`), the part of a chunk beyond it kept for the next piece; once the piece is full the
/// transfer pauses. A store that answers a range with the whole object (200) has the bytes before
/// the range dropped; bytes past the range are never kept.
final class BodyReceiver {
    /// The answer's status, once its body began.
    private(set) var status: Int?
    /// Whether the body is the range's bytes (a 200 or 206).
    private(set) var takes = false
    /// The piece being filled, and how much of it is.
    private var destination = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private(set) var filled = 0
    /// What a chunk held beyond the last piece (at most one of libcurl's chunks).
    private var overflow: [UInt8] = []
    /// The transfer paused itself here.
    var paused = false
    private let first: Int64
    private var skip: Int64 = 0
    private var remaining: Int64

    init(range: ClosedRange<Int64>) {
        first = range.lowerBound
        remaining = Int64(range.count)
    }

    /// Whether the piece being filled is.
    var full: Bool { filled >= destination.count }

    /// The status at the body's first byte: whether this body is taken.
    func begin(status: Int) -> Bool {
        self.status = status
        if status == 200 { skip = first }
        takes = status == 200 || status == 206
        return takes
    }

    /// Starts filling `piece`, first with what the last chunk held beyond the last piece.
    func fill(_ piece: UnsafeMutableRawBufferPointer) {
        (destination, filled) = (piece, 0)
        guard !overflow.isEmpty else { return }
        let count = min(overflow.count, piece.count)
        overflow.withUnsafeBytes { piece.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
        filled = count
        overflow.removeFirst(count)
    }

    /// Ends the piece: nothing is written into it after this.
    func release() {
        destination = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    /// Keeps `chunk`'s bytes of the range; false when the piece is already full (pause, and hand it over again later).
    func take(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard !full else {
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
        remaining -= Int64(kept)
        let into = min(kept, destination.count - filled)
        if into > 0 {
            (destination.baseAddress! + filled).copyMemory(from: bytes.baseAddress!, byteCount: into)
            filled += into
        }
        if kept > into { overflow.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[into..<kept])) }
        return true
    }
}
