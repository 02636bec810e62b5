/// A failure the CLI words itself (guests' mail: its settings, an address, a mail not sent), with
/// its sysexits status: `RecorderCommand.runFromCommandLine` prints it as it prints any other.
struct CLIMailFailure: Error {
    var text: String
    var status: SysExit
}
