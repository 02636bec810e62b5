internal import CFFmpeg
import FoundationEssentials
package import MediaValues

/// FFmpeg's libraries, opened when the first shot, remux or probe needs them (see CFFmpeg's shim).
package enum FFmpegLibraries {
    private static let loaded: String? = {
        if let failure = cff_load() { return String(cString: failure) }
        // FFmpeg logs to stderr by default ("[NULL @ 0x...] Invalid NAL unit size" while probing a
        // cut-off file): its failures reach people as our errors instead. RECORDER_FFMPEG_LOG=1
        // brings its own lines back, for diagnosis.
        let wanted = ProcessInfo.processInfo.environment["RECORDER_FFMPEG_LOG"] ?? ""
        cff_av_log_set_level(wanted.isEmpty || wanted == "0" ? AV_LOG_QUIET : AV_LOG_INFO)
        return nil
    }()

    /// Opens the libraries once; every entry point of this module calls it before any FFmpeg call.
    package static func load() throws(MediaError) {
        if let failure = loaded {
            throw MediaError(.missingCodec, .librariesUnloadable(loader: failure))
        }
    }
}
