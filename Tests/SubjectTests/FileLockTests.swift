import Foundation
import Testing
@testable import Settings
import Shooting
import Failures
import DurableFiles
import SystemSupport
import Synchronization

/// The workspace's and posting's flock: refused at once when busy, or taken within a moment's
/// patience once freed (a lock can outlive its holder by as long as a forked child takes to exec).
// (one at a time: a taker that waits holds a thread of the test's pool, and its test needs another;
// the time limits leave room for the pool's other synchronous tests, which hold up the test's own)
@Suite(.serialized) struct FileLockTests {
    @Test func aBusyLockIsRefusedAtOnceOrTakenWhenFreedWithinThePatience() throws {
        let root = ShotWorkspaceTests.tempRoot()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let workspace = ShotWorkspace(root: root)
        // Another process holds the lock for a second: flock(1), a holder that is not ours.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-x", root + "/.lock", "sleep", "1"]
        try holder.run()
        defer { holder.waitUntilExit() }
        // Until it holds it, a lock without patience is ours; once it does, refused at once.
        var refused: RecorderError?
        let end = Date().addingTimeInterval(30)
        while refused == nil, Date() < end {
            do throws(RecorderError) { _ = try workspace.lock() } catch { refused = error }
            if refused == nil { usleep(10_000) }
        }
        #expect(refused == ShotFailure.workspaceBusy(root: root), "\(String(describing: refused))")
        // With patience it is taken once the holder lets go, with no error.
        let waited = Date()
        let taken = try workspace.lock(patienceSeconds: 30)
        #expect(Date().timeIntervalSince(waited) > 0.1, "it was taken only after the holder let go")
        _ = consume taken
    }

    /// Holds `path`'s flock on a descriptor of the test's own (another open file: flock(2) locks
    /// it against this process's other opens too) until the returned descriptor is closed.
    static func hold(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd
    }

    /// A patient taker waits by its clock: a `TestClock` that passes the patience has it refused.
    @Test(.timeLimit(.minutes(5))) func thePatienceIsCountedByTheClock() async throws {
        let path = NSTemporaryDirectory() + "lock-\(UUID().uuidString)"
        defer { unlink(path) }
        let held = try Self.hold(path)
        defer { close(held) }
        let clock = TestClock()
        let busy = RecorderError.shot(.workspaceBusy(root: path))
        let ended = Mutex(false)
        let taker = Task.detached { () -> RecorderError? in
            defer { ended.withLock { $0 = true } }
            do throws(RecorderError) { _ = try FileLock(path: path, busy: busy, patienceSeconds: 3600, clock: clock) } catch { return error }
            return nil
        }
        // An hour of the clock's (the machine's stays short: the test's time limit, a starved pool's
        // margin, is five minutes).
        while !ended.withLock({ $0 }) {
            clock.advance(by: .seconds(600))
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await taker.value == busy)
    }

    /// A task cancelled while it waits for a busy lock gives up at once, refused as busy: no
    /// sleep holds it (the patience is an hour of a clock that stands still).
    @Test(.timeLimit(.minutes(5))) func aCancelledWaitForALockEndsAtOnce() async throws {
        let path = NSTemporaryDirectory() + "lock-\(UUID().uuidString)"
        defer { unlink(path) }
        let held = try Self.hold(path)
        defer { close(held) }
        let busy = RecorderError.shot(.workspaceBusy(root: path))
        let started = Mutex(false)
        let taker = Task.detached { () -> RecorderError? in
            started.withLock { $0 = true }
            do throws(RecorderError) { _ = try FileLock(path: path, busy: busy, patienceSeconds: 3600, clock: TestClock()) } catch { return error }
            return nil
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        taker.cancel()
        #expect(await taker.value == busy)
    }
}
