internal import CFFmpeg
import MediaValues

/// One of recorder's own MP4 files, opened for reading; closes on release.
///
/// The format is named rather than probed, and the stream parameters are taken from the MP4
/// header: probing runs every demuxer's detector (2 MB of libavformat paged in) and reading the
/// stream info opens a frame-threaded H.264 decoder (14 MB at 1080p) to learn what the header says.
final class MediaInput {
    let context: UnsafeMutablePointer<AVFormatContext>
    let videoStream: UnsafeMutablePointer<AVStream>
    /// The sound stream, when the file has one.
    let audioStream: UnsafeMutablePointer<AVStream>?

    init(path: String) throws(MediaError) {
        try FFmpegLibraries.load()
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try MediaError.check(cff_avformat_open_input(&ctx, path, cff_av_find_input_format("mp4"), nil), "avformat_open_input", path: path)
        guard let context = ctx else { throw MediaError(.failed, .noObject(function: "avformat_open_input"), path: path) }
        let index = cff_av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0 else {
            var c: UnsafeMutablePointer<AVFormatContext>? = context
            cff_avformat_close_input(&c)
            throw MediaError(.badInput, .noVideoStream, path: path)
        }
        self.context = context
        self.videoStream = context.pointee.streams[Int(index)]!
        let audio = cff_av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        audioStream = audio >= 0 ? context.pointee.streams[Int(audio)]! : nil
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        cff_avformat_close_input(&c)
    }
}
