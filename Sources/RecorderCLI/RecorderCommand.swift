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
                      DevicesCommand.self, KioskCommand.self])

    public init() {}
}

extension RecorderCommand {
    /// Parses the process arguments, runs the subcommand and exits with its status. The one place
    /// a failure becomes a message and a sysexits status: subcommands just throw `RecorderError`.
    public static func runFromCommandLine() async {
        do {
            var command = try parseAsRoot()
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
