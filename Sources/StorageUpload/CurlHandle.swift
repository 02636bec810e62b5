internal import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
import StoreValues

/// Owns one libcurl easy handle. Reused for consecutive requests so connections are kept alive;
/// one per thread (libcurl handles are not thread-safe).
struct CurlHandle: ~Copyable {
    /// curl_global_init, once per process, before the first easy or multi handle.
    static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// The easy handle, for `CurlMulti` to add and recognise; never used on two threads at once.
    let handle: UnsafeMutableRawPointer
    /// libcurl's words for the last failure (CURLOPT_ERRORBUFFER), empty when it gave none.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(StorageError) {
        guard Self.globalInit, let handle = curl_easy_init() else {
            throw StorageError(.configuration, .libcurlUnavailable, retryable: false)
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Runs `transfer` (from `prepare`) to its end on this thread and returns the answer, whatever
    /// its status. Throws only transport failures, and the local file's.
    func perform(_ transfer: Transfer) throws(StorageError) -> HTTPResponse {
        try finish(transfer, code: curl_easy_perform(handle))
    }

    /// Sets this handle up to send `request`, for `perform` or a `CurlMulti`. `signing` is the
    /// CURLOPT_AWS_SIGV4 provider string and "access:secret", or nil. With `file`, a 200 answer's
    /// body is streamed into that descriptor and hashed (`HTTPResponse.downloaded`) instead of kept
    /// in memory; any other answer's body is kept, to read the error. `progress` hears the bytes
    /// written into `file` so far, after each write. The one place transfer options are set, so a
    /// request sent alone and one sent among others go out alike. With `receiver`, a 200 or 206
    /// answer's body goes to it as it comes instead (`CurlStream`). The transfer must outlive the
    /// handle's use for it.
    func prepare(_ request: HTTPRequest, settings: TransferSettings, signing: (provider: String, userpwd: String)?,
                 into file: Int32? = nil, progress: ((_ written: Int64) -> Void)? = nil,
                 receiver: BodyReceiver? = nil) throws(StorageError) -> Transfer {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let sink = ResponseSink(handle: handle, file: file, progress: progress, limit: request.keep, receiver: receiver)
        let transfer = Transfer(url: request.url, sink: sink, source: RequestSource(request.body))

        // A libcurl that lacks an option (SigV4 needs 7.75, PROTOCOLS_STR 7.85) must not send an
        // unsigned or otherwise different request: the first refusal fails the transfer.
        var rejected = CURLE_OK
        func check(_ code: CURLcode) { if rejected == CURLE_OK { rejected = code } }

        for header in request.headers {
            // NULL (out of memory) leaves the list as it was: sending without, say, Content-MD5 is not an option.
            guard let longer = curl_slist_append(transfer.headers, "\(header.name): \(header.value)") else {
                throw StorageError(.transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue)), .outOfMemory(url: request.url), retryable: true)
            }
            transfer.headers = longer
        }

        setConnection(url: request.url, settings: settings, check: check)
        check(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
        check(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, settings.stallTimeoutSeconds))
        check(ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, { buffer, size, count, user in
            let sink = Unmanaged<ResponseSink>.fromOpaque(user!).takeUnretainedValue()
            return sink.append(buffer!, size * count)
        }))
        check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(transfer.sink).toOpaque()))
        check(ccurl_setopt_data_callback(handle, CURLOPT_READFUNCTION, { buffer, size, count, user in
            let source = Unmanaged<RequestSource>.fromOpaque(user!).takeUnretainedValue()
            return source.read(into: buffer!, size * count)
        }))
        check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(transfer.source).toOpaque()))
        if let signing {
            check(ccurl_setopt_string(handle, CURLOPT_AWS_SIGV4, signing.provider))
            check(ccurl_setopt_string(handle, CURLOPT_USERPWD, signing.userpwd))
        }
        switch request.method {
        case .head:
            check(ccurl_setopt_long(handle, CURLOPT_NOBODY, 1))
        case .put:
            check(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1))
            check(ccurl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(request.body.length)))
            check(ccurl_setopt_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, 512 * 1024))
        case .post:
            check(ccurl_setopt_long(handle, CURLOPT_POST, 1))
            check(ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.length)))
        case .delete:
            check(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "DELETE"))
        case .get:
            break
        }
        check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, transfer.headers))

        guard rejected == CURLE_OK else { throw Self.tooOld(rejected) }
        return transfer
    }

    /// What every use of the handle sets alike: the URL, http(s) only, no signals, the certificate
    /// and its host checked, TCP keep-alive, the connect timeout, libcurl's words into `errorBuffer`.
    private func setConnection(url: String, settings: TransferSettings, check: (CURLcode) -> Void) {
        check(ccurl_setopt_string(handle, CURLOPT_URL, url))
        check(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        check(ccurl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1))
        check(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, settings.connectTimeoutSeconds))
        check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
    }

    /// A libcurl that refused an option it should know.
    private static func tooOld(_ code: CURLcode) -> StorageError {
        StorageError(.configuration, .libcurlTooOld(version: String(cString: curl_version()), detail: String(cString: curl_easy_strerror(code))), retryable: false)
    }

    /// The most libcurl reads from a socket at once (CURL_MAX_READ_SIZE).
    static let largestRead = 512 << 10

    /// Connects to `url`'s host and sends nothing (CURLOPT_CONNECT_ONLY): the name looked up, TCP,
    /// TLS with its checks, under the connect timeout, as `prepare` would. The caller then speaks
    /// HTTP itself with `send` and `receive` (`DirectStream`). Returns the connection's socket, to
    /// wait on between them.
    func connect(to url: String, settings: TransferSettings) throws(StorageError) -> Int32 {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        var rejected = CURLE_OK
        func check(_ code: CURLcode) { if rejected == CURLE_OK { rejected = code } }
        setConnection(url: url, settings: settings, check: check)
        check(ccurl_setopt_long(handle, CURLOPT_CONNECT_ONLY, 1))
        check(ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, Self.largestRead))
        guard rejected == CURLE_OK else { throw Self.tooOld(rejected) }
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { throw failure(code, url: url) }
        let socket = ccurl_active_socket(handle)
        guard socket >= 0 else {
            throw Self.transportError(code: Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue), detail: "libcurl gave no socket for the connection", url: url)
        }
        return socket
    }

    /// curl_easy_send on a `connect`ed handle: how many of `bytes` went, or CURLE_AGAIN when the
    /// socket takes none now.
    func send(_ bytes: UnsafeRawBufferPointer) -> (count: Int, code: CURLcode) {
        var count = 0
        let code = curl_easy_send(handle, bytes.baseAddress, bytes.count, &count)
        return (count, code)
    }

    /// curl_easy_recv on a `connect`ed handle, straight into `buffer` (up to `largestRead`): how
    /// many bytes came (0: the connection closed), or CURLE_AGAIN when none are there now.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, code: CURLcode) {
        var count = 0
        let code = curl_easy_recv(handle, buffer.baseAddress, buffer.count, &count)
        return (count, code)
    }

    /// A failed transfer's or connection's `code` as the typed failure, with libcurl's words.
    func failure(_ code: CURLcode, url: String) -> StorageError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return Self.transportError(code: Int(code.rawValue), detail: detail, url: url)
    }

    /// The answer to `transfer` once libcurl has ended it with `code` (alone or in a multi handle),
    /// whatever its status. Throws only transport failures, and the local file's.
    func finish(_ transfer: Transfer, code: CURLcode) throws(StorageError) -> HTTPResponse {
        let (sink, source) = (transfer.sink, transfer.source)
        if let failure = sink.failure {
            throw StorageError(.local(errno: failure), .cannotWriteDownload(url: transfer.url, errno: failure), retryable: false)
        }
        if let failure = source.failure {
            throw StorageError(.local(errno: failure), .cannotReadUpload(errno: failure), retryable: false)
        }
        guard code == CURLE_OK else { throw failure(code, url: transfer.url) }
        var status = 0
        let info = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard info == CURLE_OK, status > 0 else {
            throw Self.transportError(code: Int(info.rawValue), detail: "no HTTP status in the answer", url: transfer.url)
        }
        var responseHeaders: [String: String] = [:]
        for name in ["etag", "content-length", "x-amz-meta-sha256"] {
            if let value = ccurl_response_header(handle, name) { responseHeaders[name] = String(cString: value) }
        }
        var response = HTTPResponse(status: status, body: sink.bytes, headers: responseHeaders)
        if transfer.file != nil && status == 200 { response.downloaded = sink.finish() }
        return response
    }

    /// Maps a libcurl error to a retryable or permanent failure with a fix.
    static func transportError(code: Int, detail: String, url: String) -> StorageError {
        let host = URLComponents(string: url)?.host ?? url
        switch CURLcode(UInt32(code)) {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return StorageError(.configuration, .badEndpointURL(detail: detail), retryable: false)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return StorageError(.configuration, .certificateUnverified(host: host, detail: detail), retryable: false)
        case CURLE_COULDNT_RESOLVE_HOST:
            return StorageError(.transport(code: code), .cannotResolve(host: host, detail: detail), retryable: true)
        case CURLE_COULDNT_CONNECT:
            return StorageError(.transport(code: code), .cannotConnect(host: host, detail: detail), retryable: true)
        case CURLE_OPERATION_TIMEDOUT:
            return StorageError(.transport(code: code), .timedOut(host: host, detail: detail), retryable: true)
        default:
            return StorageError(.transport(code: code), .transferFailed(host: host, detail: detail), retryable: true)
        }
    }
}

extension CurlHandle {
    /// What one prepared transfer needs while libcurl runs it: the body's source, the answer's sink
    /// and the header list, which libcurl uses without copying.
    final class Transfer {
        let url: String
        fileprivate let sink: ResponseSink
        fileprivate let source: RequestSource
        fileprivate var headers: UnsafeMutablePointer<curl_slist>? = nil
        fileprivate var file: Int32? { sink.file }

        fileprivate init(url: String, sink: ResponseSink, source: RequestSource) {
            self.url = url
            self.sink = sink
            self.source = source
        }

        deinit { curl_slist_free_all(headers) }
    }
}

/// Collects a response body (capped at the request's `keep`), or streams a successful
/// download into a file, hashing it.
private final class ResponseSink {
    private(set) var bytes: [UInt8] = []
    private let limit: Int
    private let handle: UnsafeMutableRawPointer
    let file: Int32?
    private let progress: ((_ written: Int64) -> Void)?
    private let receiver: BodyReceiver?
    /// Decided at the first byte of the body, once the status is known.
    private var streaming: Bool?
    private var hasher = MessageDigest(.sha256)
    private var written: Int64 = 0
    private(set) var failure: Int32?

    init(handle: UnsafeMutableRawPointer, file: Int32?, progress: ((_ written: Int64) -> Void)?, limit: Int, receiver: BodyReceiver?) {
        self.handle = handle
        self.limit = limit
        self.file = file
        self.progress = progress
        self.receiver = receiver
    }

    func finish() -> DownloadedObject {
        DownloadedObject(size: written, sha256: hasher.finish().hex)
    }

    func append(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        if streaming == nil {
            var status = 0
            // (a status libcurl cannot give stays 0: not 200, so the body is not streamed)
            _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            streaming = receiver.map { $0.begin(status: status) } ?? (file != nil && status == 200)
        }
        if streaming == true, let receiver {
            // (paused: libcurl keeps this chunk and hands it over again once resumed)
            return receiver.take(UnsafeRawBufferPointer(start: buffer, count: count)) ? count : Int(CURL_WRITEFUNC_PAUSE)
        }
        if streaming == true, let file {
            let chunk = UnsafeRawBufferPointer(start: buffer, count: count)
            do throws(Descriptors.Errno) { try Posix.writeAll(file, chunk) } catch {
                failure = error.code
                return 0  // aborts the transfer
            }
            hasher.update(chunk)
            written += Int64(count)
            // (after the write: a reader told of these bytes finds them in the file)
            progress?(written)
            return count
        }
        if bytes.count < limit {
            buffer.withMemoryRebound(to: UInt8.self, capacity: count) { p in
                bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: min(count, limit - bytes.count)))
            }
        }
        return count
    }
}

/// Feeds a request body (or a mail message) to libcurl; restartable from the beginning is not
/// needed (no redirects).
final class RequestSource {
    private let body: HTTPRequest.Body
    /// Whether the bytes count as handed to a store (`UploadMeter`); a mail's do not.
    private let metered: Bool
    private var position: Int64 = 0
    private(set) var failure: Int32?

    init(_ body: HTTPRequest.Body, metered: Bool = true) {
        self.body = body
        self.metered = metered
    }

    /// True once every byte of the body has been handed to libcurl.
    var finished: Bool { position == body.length }

    func read(into buffer: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Int {
        let remaining = body.length - position
        let count = Int(min(Int64(capacity), remaining))
        guard count > 0 else { return 0 }
        switch body {
        case .none:
            return 0
        case .bytes(let bytes):
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + Int(position), byteCount: count)
            }
        case .file(let fd, let offset, _):
            var done = 0
            while done < count {
                let n: Int
                do throws(Descriptors.Errno) {
                    n = try Posix.read(fd, into: UnsafeMutableRawBufferPointer(start: buffer + done, count: count - done), at: offset + position + Int64(done))
                } catch {
                    failure = error.code
                    return Int(CURL_READFUNC_ABORT)
                }
                if n == 0 {
                    // The file ended early (it shrank while it was being sent).
                    failure = EIO
                    return Int(CURL_READFUNC_ABORT)
                }
                done += n
            }
        }
        position += Int64(count)
        if metered { UploadMeter.add(count) }
        return count
    }
}
