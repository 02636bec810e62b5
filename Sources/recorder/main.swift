import RecorderCLI

await RecorderCommand.runFromCommandLine()
