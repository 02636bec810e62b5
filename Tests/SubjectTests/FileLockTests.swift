import Foundation
import Testing
@testable import Settings
import Shooting
import Failures

/// The workspace's and posting's flock: refused at once when busy, or taken within a moment's
/// patience once freed (a lock can outlive its holder by as long as a forked child takes to exec).
@Suite struct FileLockTests {
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
}
