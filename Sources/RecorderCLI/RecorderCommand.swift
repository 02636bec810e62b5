import ArgumentParser
import Synchronization
import RecorderCore

/// `recorder`: capture from a V4L2 camera into a crash-safe MP4, then publish it.
public struct RecorderCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "Record clips from a V4L2 camera and publish them to storage.",
        // One status per line, each short enough that argument-parser never wraps it.
        discussion: """
        Frames flow one way: camera -> capture -> H.264 encode -> shot workspace -> post -> upload.

        Exit statuses (sysexits(3)):
          0   success
          64  bad option or argument
          65  bad input data (a caption, a shot already posted)
          66  no such camera, file, post or shot
          69  camera unavailable, stalled or lost; the store refused
          70  internal error
          73  cannot create: workspace or store not writable, store missing
          74  disk full or I/O error
          75  busy or temporary failure (a post stays queued: try again)
          77  permission denied (camera, store credentials)
          78  configuration error
          130 stopped (Ctrl-C) before anything worth keeping was recorded
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
            // argument-parser's own errors (usage, validation, help) keep its wording and status;
            // with --json a failure is also a JSON object on standard output.
            let code = exitCode(for: error)
            if jsonRequested && code != .success && !jsonAnswered.load(ordering: .relaxed) {
                printJSON(JSONFailure(error: fullMessage(for: error), exitStatus: Int(code.rawValue)))
            }
            exit(withError: error)
        }
    }
}
