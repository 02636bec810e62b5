import RecorderCLI

await RecorderCommand.main()
