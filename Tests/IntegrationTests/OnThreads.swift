import Foundation

/// Runs work on threads of its own, `width` at a time, for tests that need it truly concurrent (a
/// race to provoke) or quick (seeding a store): `DispatchQueue.concurrentPerform` would run only as
/// many as this machine has cores.
enum OnThreads {
    /// `body` for every item, results in the items' order; the first error is thrown once every
    /// thread has ended (items not started by then are skipped).
    static func map<T, R>(_ items: [T], width: Int, _ body: (T) throws -> R) throws -> [R] {
        let state = Shared<R>(count: items.count)
        let group = DispatchGroup()
        try withoutActuallyEscaping(body) { body in
            // The threads see the closure through a pointer: a thread keeps its block a moment after
            // it leaves the group, and the closure itself must not outlive this call.
            let slot = UnsafeMutablePointer<(T) throws -> R>.allocate(capacity: 1)
            slot.initialize(to: body)
            defer { slot.deinitialize(count: 1); slot.deallocate() }
            let box = Unchecked((slot, items))
            for _ in 0..<min(max(width, 1), items.count) {
                group.enter()
                Thread {
                    while let index = state.take() {
                        do { state.store(try box.value.0.pointee(box.value.1[index]), at: index) } catch { state.fail(error) }
                    }
                    group.leave()
                }.start()
            }
            group.wait()
            if let failure = state.failure { throw failure }
        }
        return state.results.map { $0! }
    }

    /// `@unchecked Sendable`: its pointer is followed only while `map` waits for every thread.
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The next item, the results and the first error, behind one lock.
    private final class Shared<R>: @unchecked Sendable {
        private let lock = NSLock()
        private let count: Int
        private var next = 0
        private var stored: [R?]
        private var error: (any Error)?

        init(count: Int) {
            self.count = count
            stored = Array(repeating: nil, count: count)
        }

        var results: [R?] { lock.withLock { stored } }
        var failure: (any Error)? { lock.withLock { error } }

        func take() -> Int? {
            lock.withLock {
                guard error == nil, next < count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func store(_ result: R, at index: Int) { lock.withLock { stored[index] = result } }
        func fail(_ failure: any Error) { lock.withLock { if error == nil { error = failure } } }
    }
}
