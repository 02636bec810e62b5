import Synchronization
import StoreValues

/// Idle libcurl handles kept for reuse, so consecutive requests to the store share warm
/// connections (an easy handle used alone, and a multi handle, each keep a connection cache)
/// instead of reconnecting each time.
final class CurlHandlePool: Sendable {
    /// A pooled handle. `@unchecked Sendable`: a handle is used by one thread at a time, since it is
    /// taken out of the idle list (under its mutex) while in use and put back only after.
    final class Entry<Handle: ~Copyable>: @unchecked Sendable {
        let handle: Handle
        init(_ handle: consuming Handle) { self.handle = handle }
    }

    private let idle = Mutex<[Entry<CurlHandle>]>([])
    private let idleMultis = Mutex<[Entry<CurlMulti>]>([])

    /// Runs `body` with a handle from the pool (or a new one), and puts it back afterwards.
    func withHandle<T>(_ body: (borrowing CurlHandle) throws(StorageError) -> T) throws(StorageError) -> T {
        try withHandles(1) { entries throws(StorageError) in try body(entries[0].handle) }
    }

    /// Runs `body` with `count` handles from the pool (or new ones), and puts them back afterwards.
    func withHandles<T>(_ count: Int, _ body: ([Entry<CurlHandle>]) throws(StorageError) -> T) throws(StorageError) -> T {
        var entries = idle.withLock { idle in
            let taken = Array(idle.suffix(count))
            idle.removeLast(taken.count)
            return taken
        }
        defer { idle.withLock { $0.append(contentsOf: entries) } }
        while entries.count < count { entries.append(Entry(try CurlHandle())) }
        return try body(entries)
    }

    /// Runs `body` with a multi handle from the pool (or a new one), and puts it back afterwards.
    /// `body` must leave no easy handle in it.
    func withMulti<T>(_ body: (borrowing CurlMulti) throws(StorageError) -> T) throws(StorageError) -> T {
        let entry: Entry<CurlMulti>
        if let reused = idleMultis.withLock({ $0.popLast() }) { entry = reused } else { entry = Entry(try CurlMulti()) }
        defer { idleMultis.withLock { $0.append(entry) } }
        return try body(entry.handle)
    }
}
