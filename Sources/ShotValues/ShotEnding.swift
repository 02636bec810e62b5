/// Why a shot is shorter than asked: a case the code decides by (a stop under the minimum is
/// discarded, an end of input is what was asked), stored in `shot.json` as its raw value (the words
/// scripts have read there since the first shot: "stopped", "end of input", ...). The edges word it.
package enum ShotEnding: String, Sendable, Codable, Hashable, CaseIterable {
    /// A stop (Ctrl-C, the kiosk's button or page) ended it.
    case stopped
    /// The input ended by itself (a file or a pipe).
    case endOfInput = "end of input"
    /// The camera was lost mid-shot; what was recorded is kept.
    case cameraLost = "camera lost"
    /// The disk filled mid-shot; the whole fragments are kept.
    case diskFull = "disk full"
    /// A kill, crash or power cut ended it; it was recovered at the next start.
    case interrupted = "interrupted (kill, crash or power cut); recovered at the next start"
}
