import Dispatch
import SystemSupport

/// Runs blocking work (network requests) on real threads, `width` at a time. Unlike
/// `DispatchQueue.concurrentPerform`, which libdispatch sizes to the active CPUs, the width is what
/// the caller asks for: a 2-core kiosk still keeps 8 requests in flight.
public enum ParallelWork {
    /// `body` for every item, results in the items' order. The first failure is thrown once all
    /// started work has ended; items not started by then are skipped.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], width: Int,
                                                     _ body: (T) throws(StorageError) -> R) throws(StorageError) -> [R] {
        if items.count <= 1 || width <= 1 {
            var results: [R] = []
            for item in items { results.append(try body(item)) }
            return results
        }
        let state = ParallelState<R>(count: items.count)
        let done = DispatchSemaphore(value: 0)
        let threads = min(width, items.count)
        withoutActuallyEscaping(body) { body in
            // The threads see the closure through a pointer: a thread keeps its block a moment
            // after it signals, and the closure itself must not outlive this call.
            let slot = UnsafeMutablePointer<(T) throws(StorageError) -> R>.allocate(capacity: 1)
            slot.initialize(to: body)
            defer { slot.deinitialize(count: 1); slot.deallocate() }
            let work = UncheckedBox(slot)
            for _ in 0..<threads {
                WorkerThread.start(name: "recorder-parts", stackSize: 1 << 20) {
                    while let index = state.take() {
                        do throws(StorageError) {
                            state.store(try work.value.pointee(items[index]), at: index)
                        } catch {
                            state.fail(error)
                        }
                    }
                    done.signal()
                }
            }
            for _ in 0..<threads { done.wait() }
        }
        if let failure = state.failure { throw failure }
        return state.results.map { $0! }
    }
}

/// Carries a pointer to a non-Sendable closure to the worker threads.
///
/// `@unchecked Sendable`: the threads are all done with it before the call that made it returns
/// (`map` waits for each to signal), so it never outlives its owner nor runs after it.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The shared counters of one `ParallelWork.map`.
///
/// `@unchecked Sendable`: `next`, `results` and `failure` change only with `lock` held, and are
/// read without it only after every worker has signalled that it is done.
private final class ParallelState<R>: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0
    private let count: Int
    private(set) var results: [R?]
    private(set) var failure: StorageError?

    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }

    func take() -> Int? {
        lock.withLock {
            guard failure == nil, next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ result: R, at index: Int) { lock.withLock { results[index] = result } }

    func fail(_ error: StorageError) { lock.withLock { if failure == nil { failure = error } } }
}
