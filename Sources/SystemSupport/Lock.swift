import Glibc

/// A mutex that escaping closures and classes can share (the standard library's `Mutex` is
/// `~Copyable` and cannot be captured by them).
///
/// `@unchecked Sendable`: the pthread mutex it wraps is what makes sharing it safe; its pointer
/// never changes after `init`.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// `body` with the lock held.
    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
