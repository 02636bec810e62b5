import Dispatch
import Glibc
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

    @Test func workerThreadsRunConcurrentlyAndTheLockKeepsCountsExact() {
        let lock = Lock()
        let counter = Counter()
        let done = DispatchSemaphore(value: 0)
        // Four threads that each wait for all four to have started: only real concurrent threads
        // get past the barrier (a pool sized to two cores would hang here, so the wait is bounded).
        let started = Counter()
        for _ in 0..<4 {
            WorkerThread.start(name: "test-worker") {
                lock.withLock { started.value += 1 }
                var spins = 0
                while lock.withLock({ started.value }) < 4 && spins < 5_000 { usleep(1000); spins += 1 }
                for _ in 0..<10_000 { lock.withLock { counter.value += 1 } }
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        #expect(started.value == 4)
        #expect(counter.value == 40_000)
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

private final class Counter: @unchecked Sendable {
    var value = 0
}
