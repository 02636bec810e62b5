import Foundation
import Testing

/// Rules about where threads come from and why shared state is safe, checked on the sources so a
/// change that breaks one fails here instead of waiting for a reviewer.
@Suite struct CodeRulesTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path

    /// Every Swift file under Sources: (path relative to Sources, lines).
    static func swiftFiles() throws -> [(name: String, lines: [String])] {
        let paths = try #require(FileManager.default.subpaths(atPath: sources)).filter { $0.hasSuffix(".swift") }.sorted()
        return try paths.map { path in
            (path, try String(contentsOfFile: sources + "/" + path, encoding: .utf8).components(separatedBy: "\n"))
        }
    }

    /// Lines of code (not comments) that contain `text`, as "file:line".
    static func uses(of text: String) throws -> [(file: String, line: Int)] {
        try swiftFiles().flatMap { file in
            file.lines.enumerated().compactMap { index, line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.hasPrefix("//") && code.contains(text) ? (file.name, index + 1) : nil
            }
        }
    }

    @Test func theRulesSeeTheSources() throws {
        // Guards the other checks against passing because they read nothing.
        let files = try Self.swiftFiles()
        #expect(files.count > 50)
        #expect(try Self.uses(of: "import ").count > 100)
        #expect(try Self.uses(of: "@unchecked Sendable").count >= 1)
    }

    @Test func everyUncheckedSendableSaysWhatMakesItSafe() throws {
        for file in try Self.swiftFiles() {
            for (index, line) in file.lines.enumerated() where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                // The comment block right above the declaration names the lock or thread.
                var above = index - 1
                var comment: [String] = []
                while above >= 0, file.lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    comment.insert(file.lines[above], at: 0)
                    above -= 1
                }
                #expect(comment.joined().contains("`@unchecked Sendable`:"),
                        "\(file.name):\(index + 1) is @unchecked Sendable without a comment saying why (\"`@unchecked Sendable`: ...\")")
            }
        }
    }

    /// Dispatch queues are not how this code runs blocking work: short calls go through
    /// `BlockingWork`, long ones have a thread of their own.
    @Test func noDispatchQueues() throws {
        let found = try Self.uses(of: "DispatchQueue(")
        #expect(found.isEmpty, "DispatchQueue where BlockingWork or a thread of its own belongs: \(found.map { "\($0.file):\($0.line)" })")
    }

    /// Threads are started only by the blocking-work helper and by the long-lived owners of a
    /// device or a transfer.
    @Test func threadsStartOnlyWhereTheyOwnSomething() throws {
        let allowed: Set<String> = [
            "SystemSupport/WorkerThread.swift",   // the primitive itself
            "SystemSupport/BlockingWork.swift",   // its helper threads, started once
            "Shooting/Recording.swift",           // one thread per shot: open to release
            "Shooting/PreviewSession.swift",      // the preview's thread, while somebody watches
            "Publishing/OutboxDrain.swift",       // the drain, for the life of the kiosk
            "MediaEncoder/EncodePipeline.swift",  // a shot's encoding thread, overlapping its capture
            "AudioCapture/AlsaCaptureSource.swift", // a microphone's capture thread, start to close
            "KioskService/StateHook.swift",       // kiosk.on_state's runner, for the life of the kiosk
            "TriggerInput/TriggerButton.swift",   // the booth button's reader, which owns its device for the life of the kiosk
        ]
        let found = try (Self.uses(of: "WorkerThread.start(") + Self.uses(of: "pthread_create(")).filter { !allowed.contains($0.file) }
        #expect(found.isEmpty, "threads started outside the allowed owners: \(found.map { "\($0.file):\($0.line)" })")
    }
}
