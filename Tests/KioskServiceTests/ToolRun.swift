import Foundation
import Testing

/// Runs `/usr/bin/<tool>` (ffprobe, ffmpeg: the independent readers) and returns what it printed;
/// a failure is a failed requirement naming the call.
func runTool(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let process = Process()
    let out = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(tool) \(arguments)", sourceLocation: sourceLocation)
    return text
}
