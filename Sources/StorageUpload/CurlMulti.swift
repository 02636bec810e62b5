internal import CCurl
import StoreValues

/// Owns one libcurl multi handle: several easy handles' transfers driven together on the calling
/// thread (curl_multi_perform, curl_multi_poll), instead of one thread blocked per transfer. Its
/// connection cache outlives the transfers, so a kept multi handle reuses warm connections.
struct CurlMulti: ~Copyable {
    private let multi: UnsafeMutableRawPointer

    init() throws(StorageError) {
        guard CurlHandle.globalInit, let multi = curl_multi_init() else {
            throw StorageError(.configuration, .libcurlUnavailable, retryable: false)
        }
        // One connection per transfer, as when each had its own thread: HTTP/2 multiplexing (the
        // default over TLS) would put every part on one TCP connection and lose the parallel throughput.
        let code = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_NOTHING))
        guard code == CURLM_OK else {
            curl_multi_cleanup(multi)
            throw Self.failure(code, .setUp)
        }
        self.multi = multi
    }

    deinit {
        curl_multi_cleanup(multi)
    }

    /// Starts `handle`'s prepared transfer (it moves on the next `perform`).
    func add(_ handle: borrowing CurlHandle) throws(StorageError) {
        let code = curl_multi_add_handle(multi, handle.handle)
        guard code == CURLM_OK else { throw Self.failure(code, .start) }
    }

    /// Takes `handle` out, finished or not, so it can be used alone or elsewhere again.
    func remove(_ handle: borrowing CurlHandle) {
        // Fails only for a handle that is not in this multi handle, which is then already out.
        _ = curl_multi_remove_handle(multi, handle.handle)
    }

    /// Moves every transfer as far as it can go without waiting.
    func perform() throws(StorageError) {
        var running: Int32 = 0
        let code = curl_multi_perform(multi, &running)
        guard code == CURLM_OK else { throw Self.failure(code, .run) }
    }

    /// Waits until a transfer can move, libcurl's next timeout (connect, stall) is due, or
    /// `milliseconds` have passed.
    func poll(milliseconds: Int32) throws(StorageError) {
        let code = curl_multi_poll(multi, nil, 0, milliseconds, nil)
        guard code == CURLM_OK else { throw Self.failure(code, .wait) }
    }

    /// The next transfer that has ended since the last call: its easy handle and libcurl's result.
    func nextFinished() -> (handle: UnsafeMutableRawPointer, code: CURLcode)? {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                return (easy, message.pointee.data.result)
            }
        }
        return nil
    }

    private static func failure(_ code: CURLMcode, _ step: StorageError.MultiStep) -> StorageError {
        // Out of memory or a broken handle, not the network: the next attempt starts afresh.
        StorageError(.transport(code: Int(code.rawValue)), .transfers(step, detail: String(cString: curl_multi_strerror(code))), retryable: true)
    }
}
