import CFFmpeg

/// FFmpeg's libraries, opened when the first shot, remux or probe needs them (see CFFmpeg's shim).
public enum FFmpegLibraries {
    private static let loaded: String? = {
        if let failure = cff_load() { return String(cString: failure) }
        // FFmpeg logs to stderr by default; a kiosk's journal wants our messages, not x264's statistics.
        cff_av_log_set_level(AV_LOG_ERROR)
        return nil
    }()

    /// Opens the libraries once; every entry point of this module calls it before any FFmpeg call.
    public static func load() throws(MediaError) {
        if let failure = loaded {
            throw MediaError(.missingCodec, operation: "load FFmpeg",
                             detail: "FFmpeg's libraries could not be opened (\(failure)).")
        }
    }
}
