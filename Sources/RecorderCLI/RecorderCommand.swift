package import ArgumentParser
import Synchronization
import Settings
import SystemSupport
import Failures

/// `recorder`: capture from a V4L2 camera into a crash-safe MP4, then publish it.
package struct RecorderCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
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
                      ExportCommand.self, ReelCommand.self, GalleryCommand.self, DevicesCommand.self, KioskCommand.self, ServeCommand.self,
                      DoctorCommand.self, FleetCommand.self, ConfigCommand.self])

    package init() {}
}

extension RecorderCommand {
    /// Notes the descriptors the program was started with (`ProcessImage`): called first, before
    /// anything opens one.
    package static func noteInheritedDescriptors() {
        ProcessImage.noteInheritedDescriptors()
    }

    /// Parses the process arguments, runs the subcommand and exits with its status. The one place
    /// a failure becomes a message and a sysexits status: subcommands just throw `RecorderError`.
    package static func runFromCommandLine() async {
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

extension RecorderCommand {
    /// `parseAsRoot`, except that an unknown command gets "did you mean ...?" (argument-parser only
    /// says "Unexpected argument").
    static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(first) {
                let hint = EditDistance.closest(to: first, among: names).map { " Did you mean '\($0)'?" } ?? ""
                throw ValidationError("unknown command '\(first)'.\(hint) Commands: \(names.dropLast().joined(separator: ", ")).")
            }
        }
        return try parseAsRoot(arguments)
    }
}
