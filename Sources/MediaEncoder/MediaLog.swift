import CFFmpeg

/// FFmpeg logs to stderr by default; a kiosk's journal wants our messages, not x264's statistics.
enum MediaLog {
    private static let once: Void = { av_log_set_level(AV_LOG_ERROR) }()

    static func quiet() { _ = once }
}
