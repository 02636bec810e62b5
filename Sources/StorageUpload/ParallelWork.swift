import Dispatch
import Synchronization
internal import SystemSupport

/// Runs blocking work (network requests) on real threads, `width` at a time. Unlike
/// `DispatchQueue.concurrentPerform`, which libdispatch sizes to the active CPUs, the width is what
/// the caller asks for: a 2-core kiosk still keeps 8 requests in flight.
package enum ParallelWork {
    /// `body` for every item, results in the items' order. The first failure is thrown once all
    /// started work has ended; items not started by then are skipped.
    package static func map<T: Sendable, R: Sendable>(_ items: [T], width: Int,
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

/// The shared counters of one `ParallelWork.map`, behind one mutex.
private final class ParallelState<R: Sendable>: Sendable {
    private struct Counters {
        var next = 0
        var results: [R?]
        var failure: StorageError?
    }
    private let count: Int
    private let counters: Mutex<Counters>

    init(count: Int) {
        self.count = count
        counters = Mutex(Counters(results: Array(repeating: nil, count: count)))
    }

    var results: [R?] { counters.withLock { $0.results } }
    var failure: StorageError? { counters.withLock { $0.failure } }

    func take() -> Int? {
        counters.withLock { state in
            guard state.failure == nil, state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func store(_ result: R, at index: Int) { counters.withLock { $0.results[index] = result } }

    func fail(_ error: StorageError) { counters.withLock { if $0.failure == nil { $0.failure = error } } }
}
