import CFFmpeg

/// An opened media file with its stream info read; closes on release.
final class MediaInput {
    let context: UnsafeMutablePointer<AVFormatContext>
    let videoStream: UnsafeMutablePointer<AVStream>

    init(path: String) throws(MediaError) {
        MediaLog.quiet()
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try MediaError.check(avformat_open_input(&ctx, path, nil, nil), "avformat_open_input", path: path)
        guard let context = ctx else { throw MediaError(.failed, operation: "avformat_open_input", path: path) }
        let code = avformat_find_stream_info(context, nil)
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard code >= 0, index >= 0 else {
            var c: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&c)
            throw MediaError(.badInput, operation: "read \(path)", detail: "it has no readable video stream")
        }
        self.context = context
        self.videoStream = context.pointee.streams[Int(index)]!
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&c)
    }
}
