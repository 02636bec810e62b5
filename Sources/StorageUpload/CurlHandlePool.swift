import Synchronization

/// Idle libcurl handles kept for reuse, so consecutive requests to the store share warm
/// connections (a handle keeps its connection cache) instead of reconnecting each time.
final class CurlHandlePool: Sendable {
    /// `@unchecked Sendable`: a handle is used by one thread at a time, since it is taken out of
    /// `idle` (under its mutex) while in use and put back only after.
    private final class Entry: @unchecked Sendable {
        let handle: CurlHandle
        init(_ handle: consuming CurlHandle) { self.handle = handle }
    }

    private let idle = Mutex<[Entry]>([])

    /// Runs `body` with a handle from the pool (or a new one), and puts it back afterwards.
    func withHandle<T>(_ body: (borrowing CurlHandle) throws(StorageError) -> T) throws(StorageError) -> T {
        let entry: Entry
        if let reused = idle.withLock({ $0.popLast() }) { entry = reused } else { entry = Entry(try CurlHandle()) }
        defer { idle.withLock { $0.append(entry) } }
        return try body(entry.handle)
    }
}
