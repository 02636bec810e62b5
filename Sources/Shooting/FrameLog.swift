internal import SystemSupport
import VideoCapture

/// One line per recorded frame, "sequence timestamp_us", for `RECORDER_FRAME_LOG`: lets a test
/// tell frames the device dropped (gaps, counted) from frames recorded twice (never). A frame
/// costs an append; the lines are made and written (through `FileSystem`) once the encoder lets
/// go of the log, as the shot ends: no formatting and no file on the per-frame path.
final class FrameLog {
    private let path: String
    private var stamps: [FrameStamp] = []

    init(path: String) {
        self.path = path
        stamps.reserveCapacity(4096)
    }

    func record(_ stamp: FrameStamp) {
        stamps.append(stamp)
    }

    deinit {
        let lines = stamps.map { "\($0.sequence) \($0.timestampMicroseconds)\n" }.joined()
        // (a diagnostic for the device tests: a log that cannot be written costs the shot nothing)
        try? FileSystem.writeSynced(Array(lines.utf8), to: path)
    }
}
