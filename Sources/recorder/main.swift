import RecorderCLI

// First, before anything opens a file: what a restart of the kiosk in place hands on as it came.
RecorderCommand.noteInheritedDescriptors()
await RecorderCommand.runFromCommandLine()
