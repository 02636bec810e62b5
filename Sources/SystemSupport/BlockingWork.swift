import Glibc
import Synchronization

/// Where blocking calls run (a device probe, a JPEG, a file read, a store request, waiting for a
/// thread to end): a few long-lived threads and a queue, off Swift's cooperative pool and off every
/// actor, in the manner of swift-subprocess's `Thread.swift`.
///
/// `BlockingWork.run` uses the shared pool (`recorder-blocking`) for short calls. Work that may
/// take long (a video fetched from a store) gets a pool of its own, so it never holds up a status
/// request or a preview picture behind it. Long work that owns a device for its whole life (a
/// shot, the preview, the outbox drain) has a thread of its own (`WorkerThread`) instead.
package final class BlockingWork: Sendable {
    /// The shared pool. Four threads: the kiosk's status, preview and camera probes overlap, and
    /// a box with two cores gains nothing from more.
    package static let shared = BlockingWork(name: "recorder-blocking", threads: 4)

    private let queue: WorkQueue

    /// A pool of `threads` threads named `name` (15 bytes show in ps), started with its first job.
    package init(name: String, threads: Int) {
        queue = WorkQueue(name: name, threads: threads)
    }

    /// `run` on the shared pool.
    package static func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        try await shared.run(body)
    }

    /// `runUnlessCancelled` on the shared pool.
    package static func runUnlessCancelled<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T? {
        try await shared.runUnlessCancelled(body)
    }

    /// Runs `body` on one of this pool's threads and returns what it returns. It always runs, even
    /// if the calling task is cancelled meanwhile (releasing a device must not be skipped); use
    /// `runUnlessCancelled` for work a cancelled caller no longer needs.
    package func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.enqueue(Job(cancelled: nil) {
                do throws(E) { continuation.resume(returning: .success(try body())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            } skip: {
                continuation.resume(returning: .failure(unreachableCancellation()))
            })
        }
        return try result.get()
    }

    /// Runs `body` on one of this pool's threads, unless the calling task is cancelled before a
    /// thread takes it up: then `body` never runs and this returns nil at once. (A call that has
    /// started runs to its end: blocking calls cannot be interrupted.)
    package func runUnlessCancelled<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T? {
        let flag = CancelFlag()
        let result: Result<T, E>? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.enqueue(Job(cancelled: flag) {
                    do throws(E) { continuation.resume(returning: .success(try body())) } catch {
                        continuation.resume(returning: .failure(error))
                    }
                } skip: {
                    continuation.resume(returning: nil)
                })
            }
        } onCancel: {
            flag.set()
        }
        return try result?.get()
    }

    /// Starts `body` on one of this pool's threads and returns at once: work whose end nobody
    /// awaits (a download that fills the video cache whether or not the viewer who asked stays).
    package func submit(_ body: @escaping @Sendable () -> Void) {
        queue.enqueue(Job(cancelled: nil) { body() } skip: {})
    }

    /// True on a thread of any pool (debug checks: work that must not block a helper can assert it).
    package static var isHelperThread: Bool { WorkQueue.onHelper }
}

/// `run` never skips its job; its skip handler only satisfies the type.
private func unreachableCancellation<E>() -> E { fatalError("BlockingWork.run skipped a job") }

/// Set when the task that queued a job is cancelled.
private final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var wasSet: Bool { value.load(ordering: .acquiring) }
}

private struct Job: Sendable {
    let cancelled: CancelFlag?
    let work: @Sendable () -> Void
    let skip: @Sendable () -> Void
    init(cancelled: CancelFlag?, _ work: @escaping @Sendable () -> Void, skip: @escaping @Sendable () -> Void) {
        self.cancelled = cancelled
        self.work = work
        self.skip = skip
    }
}

/// A FIFO of jobs under a pthread mutex, with a condition the idle helpers sleep on. The helpers
/// start with the first job and live as long as the process.
///
/// `@unchecked Sendable`: `jobs`, `head` and `started` are touched only with `mutex` held.
private final class WorkQueue: @unchecked Sendable {
    // A job taken is cleared from its slot at once: a slot kept until the array is compacted
    // kept its closure, and whatever that captured (a Download all's reader, its store stream and
    // pieces), alive long after the job ran.
    private var jobs: [Job?] = []
    private var head = 0
    private var started = false
    private let threads: Int
    private let name: String
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let ready: UnsafeMutablePointer<pthread_cond_t>
    // Written once, by `keyCreated`'s initialiser (which Swift runs exactly once), before any read.
    nonisolated(unsafe) static var helperKey = pthread_key_t()
    static let keyCreated: Bool = { pthread_key_create(&helperKey, nil) == 0 }()

    static var onHelper: Bool { keyCreated && pthread_getspecific(helperKey) != nil }

    init(name: String, threads: Int) {
        self.name = name
        self.threads = threads
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        ready = .allocate(capacity: 1)
        ready.initialize(to: pthread_cond_t())
        pthread_cond_init(ready, nil)
    }

    func enqueue(_ job: Job) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        let startThreads = !started
        started = true
        pthread_cond_signal(ready)
        pthread_mutex_unlock(mutex)
        if startThreads {
            _ = Self.keyCreated
            for _ in 0..<threads {
                WorkerThread.start(name: name, stackSize: 4 << 20) { [self] in
                    pthread_setspecific(Self.helperKey, UnsafeRawPointer(bitPattern: 1))
                    serve()
                }
            }
        }
    }

    private func next() -> Job {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        // A while loop: pthread_cond_wait may wake without a signal.
        while head == jobs.count { pthread_cond_wait(ready, mutex) }
        let job = jobs[head]!
        jobs[head] = nil
        head += 1
        if head > 64 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    private func serve() -> Never {
        while true {
            let job = next()
            if job.cancelled?.wasSet == true { job.skip() } else { job.work() }
        }
    }
}
