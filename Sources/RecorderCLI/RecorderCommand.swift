import ArgumentParser
import RecorderCore

/// `recorder`: capture from a V4L2 camera into a crash-safe MP4, then publish it.
public struct RecorderCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "Record clips from a V4L2 camera and publish them to storage.",
        discussion: """
        Frames flow one way: camera -> capture -> H.264 encode -> shot workspace -> post -> upload.
        Exit statuses follow sysexits(3): 64 bad option, 65 bad data, 66 no such camera or no shot, 69 camera
        unavailable or lost, or the store refused, 73 workspace not writable, 74 disk full or I/O error, 75 busy
        or temporary failure (queued: try again), 77 permission denied, 78 configuration error.
        """,
        version: "recorder \(RecorderVersion.string)",
        subcommands: [ShootCommand.self, PostCommand.self, OutboxCommand.self, FeedCommand.self, FetchCommand.self, CacheCommand.self,
                      DevicesCommand.self, KioskCommand.self, ConfigCommand.self])

    public init() {}
}

extension RecorderCommand {
    /// Parses the process arguments, runs the subcommand and exits with its status. The one place
    /// a failure becomes a message and a sysexits status: subcommands just throw `RecorderError`.
    public static func runFromCommandLine() async {
        do {
            var command = try parseCommand(Array(CommandLine.arguments.dropFirst()))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as RecorderError {
            exit(withError: fail(error))
        } catch {
            exit(withError: error)
        }
    }
}

extension RecorderCommand {
    /// `parseAsRoot`, except that an unknown command gets "did you mean ...?" (argument-parser only
    /// says "Unexpected argument").
    static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first) {
                let closest = names.map { ($0, editDistance(first, $0)) }.min { $0.1 < $1.1 }
                let hint = closest.flatMap { $0.1 <= max(1, first.count / 3) ? " Did you mean '\($0.0)'?" : nil } ?? ""
                throw ValidationError("unknown command '\(first)'.\(hint) Commands: \(names.dropLast().joined(separator: ", ")).")
            }
        }
        return try parseAsRoot(arguments)
    }

    /// Levenshtein distance: the fewest one-character insertions, deletions or replacements.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
