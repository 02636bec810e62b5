import Foundation
import RecorderCore
import Synchronization
import Testing
@testable import KioskService

/// `kiosk.on_state`: the hook gets each state, never holds the camera up, a slow one is stopped,
/// and a bad path is refused at start.
// (one at a time: a script written by one test while another forks gets ETXTBSY)
@Suite(.serialized) struct StateHookTests {
    /// A script that appends its argument to `out` after `delay` seconds (or first, then takes
    /// `delay` seconds: its line then says a run is under way).
    static func script(_ dir: String, delay: Double, writeFirst: Bool = false) throws -> (path: String, out: String) {
        let path = dir + "/hook.sh", out = dir + "/states"
        let body = writeFirst ? "echo \"$1\" >> \(out)\nsleep \(delay)\n" : "sleep \(delay)\necho \"$1\" >> \(out)\n"
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
        // Each run writes its state first, then takes 2 s: a line says a run is under way.
        let (path, out) = try Self.script(dir, delay: 2, writeFirst: true)
        let hook = StateHook(path: path, log: { _ in })
        let started = Date()
        hook.call("countdown")
        // The caller (the camera's observer) never waits for the script (2 s): it is back long before.
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(try await Self.eventually(10) { Self.lines(out) == ["countdown"] }, "\(Self.lines(out))")
        // While one run is under way, only the newest state waits: the lamp shows the booth as it is now.
        hook.call("recording")
        hook.call("finishing")
        hook.call("idle")
        #expect(try await Self.eventually(15) { Self.lines(out).count == 2 }, "\(Self.lines(out))")
        // ("idle"'s run is under way now; nothing else waits behind it)
        try await Task.sleep(for: .milliseconds(2500))
        #expect(Self.lines(out) == ["countdown", "idle"])
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

    @Test func aHookThatIsNoExecutableIsRefusedAtStart() throws {
        let plain = NSTemporaryDirectory() + "hook-\(UUID().uuidString).txt"
        FileManager.default.createFile(atPath: plain, contents: Data("echo\n".utf8), attributes: [.posixPermissions: 0o644])
        defer { try? FileManager.default.removeItem(atPath: plain) }
        for bad in ["relative/hook.sh", "/nonexistent/hook.sh", plain] {
            #expect { try KioskSettings(try RecorderConfiguration(flags: ["kiosk.on_state": bad], configFile: KioskSettingsTests.emptyConfig,
                                                                 environment: [:])) } throws: { error in
                (error as? RecorderError).map { $0.exitStatus == .config && $0.message.contains("kiosk.on_state") } == true
            }
        }
    }
}
