import Dispatch
import Glibc
import Synchronization
import SystemSupport
import Testing

/// The stand-ins for the Foundation calls the lean binary gave up: each must answer as the call it replaced did.
@Suite struct SystemSupportTests {
    /// One size style everywhere: an 8 KB shot is not "0.0 MB", 256 KiB free is not "0 MiB free".
    @Test func sizesAreBinaryUnitsWithThreeSignificantDigits() {
        #expect(ByteCount.human(812) == "812 bytes")
        #expect(ByteCount.human(8_000) == "7.81 KiB")
        #expect(ByteCount.human(256 << 10) == "256 KiB")
        #expect(ByteCount.human(47_500_000) == "45.3 MiB")
        #expect(ByteCount.human(1_300_000_000) == "1.21 GiB")
    }

    @Test func cFormatMatchesPrintf() {
        #expect(String(cFormat: "%.1f MB", 12.345) == "12.3 MB")
        #expect(String(cFormat: "%.2f", 2.0) == "2.00")
        #expect(String(cFormat: "%%%02X", UInt8(0x0a)) == "%0A")
        #expect(String(cFormat: "U+%04X", UInt32(0x202e)) == "U+202E")
        #expect(String(cFormat: "%010ld-%09ld-%d", 1_700_000_000, 42, Int32(7)) == "1700000000-000000042-7")
        #expect(String(cFormat: "%g", 29.97) == "29.97")
        #expect(String(cFormat: "%5.1f/%.1f s", 3.25, 10.0) == "  3.2/10.0 s")
        // Longer than the first buffer: the text is formatted again in a large enough one.
        let long = String(repeating: "é", count: 100)
        #expect(String(cFormat: "%d " + long + " %d", Int32(1), Int32(2)) == "1 " + long + " 2")
    }

    @Test func trimmingTakesOffOnlyTheEnds() {
        #expect(" \t key = value \n".trimmed() == "key = value")
        #expect("   ".trimmed() == "")
        #expect("\"abc\"".trimmed { $0 == "\"" } == "abc")
        #expect("a\"b".trimmed { $0 == "\"" } == "a\"b")
        #expect("x"[...].trimmed() == "x")
    }

    @Test func pathsSplitAsNSStringDid() {
        #expect(FilePaths.directory(of: "/a/b/c.mp4") == "/a/b")
        #expect(FilePaths.directory(of: "/a/b/") == "/a")
        #expect(FilePaths.directory(of: "/c") == "/")
        #expect(FilePaths.directory(of: "c") == "")
        #expect(FilePaths.directory(of: "a/b") == "a")
        #expect(FilePaths.name(of: "/a/b/c.mp4") == "c.mp4")
        #expect(FilePaths.name(of: "/a/b/") == "b")
        #expect(FilePaths.name(of: "/") == "/")
        #expect(FilePaths.name(of: "plain") == "plain")
        #expect(FilePaths.join("/a", "b") == "/a/b")
        #expect(FilePaths.join("/a/", "b") == "/a/b")
        #expect(FilePaths.join("", "b") == "b")
    }

    @Test func workerThreadsRunConcurrently() {
        let counter = Counter()
        let done = DispatchSemaphore(value: 0)
        // Four threads that each wait for all four to have started: only real concurrent threads
        // get past the barrier (a pool sized to two cores would hang here, so the wait is bounded).
        let started = Counter()
        for _ in 0..<4 {
            WorkerThread.start(name: "test-worker") {
                started.add()
                var spins = 0
                while started.value < 4 && spins < 5_000 { usleep(1000); spins += 1 }
                for _ in 0..<10_000 { counter.add() }
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        #expect(started.value == 4)
        #expect(counter.value == 40_000)
    }

    @Test func blockingWorkRunsOffTheCallerAndSkipsWhatACancelledCallerNoLongerNeeds() async throws {
        // Runs on a helper thread, and its errors arrive typed.
        #expect(await BlockingWork.run { BlockingWork.isHelperThread })
        #expect(!BlockingWork.isHelperThread)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await BlockingWork.run { () throws(Refused) in throw Refused() } }
        // A pool of the test's own (the shared one serves other tests running meanwhile): occupy
        // both its threads, then queue work from a task that is cancelled before a thread is free:
        // it must never run.
        let pool = BlockingWork(name: "test-blocking", threads: 2)
        let release = DispatchSemaphore(value: 0)
        let running = Counter()
        // (submitted from here, not from tasks: a busy machine's cooperative threads may all be
        // held by other tests' blocking waits for longer than this test's deadline)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<2 { pool.submit { running.add(); release.wait(); finished.signal() } }
        let deadline = ContinuousClock.now + .seconds(60)
        while running.value < 2 {
            guard ContinuousClock.now < deadline else {
                Issue.record("the two threads never both started")
                for _ in 0..<2 { release.signal() }
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let ran = Counter()
        let skipped = Task { await pool.runUnlessCancelled { ran.add() } }
        skipped.cancel()
        for _ in 0..<2 { release.signal() }
        for _ in 0..<2 { await BlockingWork.run { finished.wait() } }
        #expect(await skipped.value == nil)
        #expect(ran.value == 0)
    }

    /// What a job captured is let go once it ran, not when 64 more jobs have gone through the
    /// pool: a cut Download all's reader held its paused store connection until then.
    @Test func blockingWorkLetsGoOfAJobOnceItRan() async throws {
        final class Captured: Sendable {}
        let pool = BlockingWork(name: "test-release", threads: 1)
        weak var gone: Captured?
        do {
            let captured = Captured()
            gone = captured
            await pool.run { withExtendedLifetime(captured) {} }
        }
        // Another job after it: the thread has come back for more, done with the first.
        await pool.run {}
        #expect(gone == nil, "the pool still holds what its finished job captured")
    }

    @Test func printErrorWritesEverything() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let saved = dup(2)
        dup2(fds[1], 2)
        Descriptors.printError("recorder: error: café\n")
        dup2(saved, 2)
        close(saved)
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fds[0], &buffer, buffer.count)
        close(fds[0])
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self) == "recorder: error: café\n")
    }
}

/// A count shared with threads and escaping closures.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
