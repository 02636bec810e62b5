import Foundation
import Settings
import Synchronization
import Testing
@testable import KioskService
@testable import KioskWords
@testable import KioskState
import Failures
import SystemSupport

/// `kiosk.on_state`: the hook gets each state, never holds the camera up, a slow one is stopped,
/// and a bad path is refused at start.
// (one at a time: a script written by one test while another forks gets ETXTBSY)
@Suite(.serialized) struct StateHookTests {
    /// A script that appends its argument to `out` after `delay` seconds; or, with a `gate`, first,
    /// and then waits until the file `gate` exists (its line says a run is under way, and the run
    /// lasts until the test lets it end).
    static func script(_ dir: String, delay: Double, gate: String? = nil) throws -> (path: String, out: String) {
        let path = dir + "/hook.sh", out = dir + "/states"
        let body = gate.map { "echo \"$1\" >> \(out)\nwhile [ ! -e \($0) ]; do sleep 0.05; done\n" } ?? "sleep \(delay)\necho \"$1\" >> \(out)\n"
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, out)
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func eventually(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test func eachStateReachesTheHookWithoutWaitingForIt() async throws {
        let dir = NSTemporaryDirectory() + "hook-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Each run writes its state first, then waits for the gate: a line says a run is under way,
        // and it stays under way until the test opens the gate, however slow the machine.
        let gate = dir + "/gate"
        let (path, out) = try Self.script(dir, delay: 0, gate: gate)
        // No timeout in reach (an hour): in ci30 this test's task resumed more than 120 s late, the
        // old timeout stopped the first run meanwhile, and "recording" then ran as a new one.
        // Stopping a slow hook is aSlowHookIsStoppedAndSaidSo's.
        let said = Mutex<[String]>([])
        let hook = StateHook(path: path, timeoutSeconds: 3600, log: { line in said.withLock { $0.append(line) } })
        let started = Date()
        hook.call("countdown")
        // The caller (the camera's observer) never waits for the script (which waits for the gate).
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try await Self.eventually(30) { Self.lines(out) == ["countdown"] }, "\(Self.lines(out))")
        // While one run is under way, only the newest state waits: the lamp shows the booth as it is now.
        hook.call("recording")
        hook.call("finishing")
        hook.call("idle")
        _ = FileManager.default.createFile(atPath: gate, contents: Data())
        #expect(try await Self.eventually(30) { Self.lines(out).count == 2 }, "\(Self.lines(out))")
        // (and nothing after it)
        try await Task.sleep(for: .milliseconds(1000))
        #expect(Self.lines(out) == ["countdown", "idle"], "the hook said: \(said.withLock { $0 })")
    }

    @Test func aSlowHookIsStoppedAndSaidSo() async throws {
        let dir = NSTemporaryDirectory() + "hook-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (path, out) = try Self.script(dir, delay: 30)
        let said = Mutex<[String]>([])
        let hook = StateHook(path: path, timeoutSeconds: 0.5, log: { line in said.withLock { $0.append(line) } })
        hook.call("recording")
        #expect(try await Self.eventually(5) { said.withLock { !$0.isEmpty } })
        #expect(said.withLock { $0 }.first?.contains("took over 0.5 s and was stopped") == true, "said: \(said.withLock { $0 })")
        #expect(Self.lines(out).isEmpty)
    }

    /// A script being written (an editor saving it: exec says ETXTBSY) is tried again by the
    /// kiosk's clock, not after sleeps of the machine's: while the clock stands still it is never
    /// given up on, a newer state ends the wait and runs instead, and once the clock moves on the
    /// tries run out and the hook says so.
    @Test func aScriptBeingWrittenIsTriedAgainByTheClock() async throws {
        let dir = NSTemporaryDirectory() + "hook-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (path, out) = try Self.script(dir, delay: 0)
        var writer = open(path, O_WRONLY | O_APPEND)
        try #require(writer >= 0)
        let said = Mutex<[String]>([])
        let clock = TestClock()
        let hook = StateHook(path: path, timeoutSeconds: 3600, clock: clock, log: { line in said.withLock { $0.append(line) } })
        hook.call("countdown")
        // (a second of the machine's time: five tries a tenth of a second apart took half of it)
        try await Task.sleep(for: .milliseconds(1000))
        #expect(said.withLock { $0 }.isEmpty, "given up while the clock stood still: \(said.withLock { $0 })")
        #expect(Self.lines(out).isEmpty)
        // Saved: the newer state runs.
        close(writer)
        hook.call("recording")
        #expect(try await Self.eventually(30) { Self.lines(out).last == "recording" }, "\(Self.lines(out))")
        // Written again, and the clock moves: after its tries, the hook says it cannot run.
        writer = open(path, O_WRONLY | O_APPEND)
        try #require(writer >= 0)
        defer { close(writer) }
        hook.call("idle")
        #expect(try await Self.eventually(30) {
            clock.advance(by: .milliseconds(100))
            return said.withLock { !$0.isEmpty }
        }, "the clock moved and the hook never gave up")
        #expect(said.withLock { $0 }.first?.hasPrefix("kiosk.on_state: cannot run \(path)") == true, "\(said.withLock { $0 })")
        #expect(!Self.lines(out).contains("idle"))
    }

    @Test func aHookThatIsNoExecutableIsRefusedAtStart() throws {
        let plain = NSTemporaryDirectory() + "hook-\(UUID().uuidString).txt"
        FileManager.default.createFile(atPath: plain, contents: Data("echo\n".utf8), attributes: [.posixPermissions: 0o644])
        defer { try? FileManager.default.removeItem(atPath: plain) }
        for bad in ["relative/hook.sh", "/nonexistent/hook.sh", plain] {
            #expect { try KioskSettings(try RecorderConfiguration(flags: ["kiosk.on_state": bad], configFile: KioskSettingsTests.emptyConfig,
                                                                 environment: [:], settings: .withKiosk)) } throws: { error in
                (error as? RecorderError)?.failure(as: KioskProblem.self).map { if case .hookNotExecutable(bad, _) = $0 { true } else { false } } == true
            }
        }
    }
}
