internal import CFFmpeg
import MediaValues

/// A closed libavfilter graph: its sources inside it (`movie`, `color`, `anullsrc`...), its
/// pictures and sound taken from one `buffersink` and at most one `abuffersink`.
///
/// Made from a description in FFmpeg's filter-graph language; anything a description names from
/// outside (a file, a text) goes through `escaped(_:)`, so it is read as a value, never as syntax.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let video: UnsafeMutablePointer<AVFilterContext>?
    private let audio: UnsafeMutablePointer<AVFilterContext>?
    private(set) var videoEnded = false
    private(set) var audioEnded = false

    /// - Parameter audioFrameSamples: when set, every sound frame but the last has exactly this many
    ///   samples (an encoder's fixed frame).
    init(_ description: String, audioFrameSamples: Int? = nil) throws(MediaError) {
        try FFmpegLibraries.loadFilters()
        guard let graph = cff_avfilter_graph_alloc() else { throw MediaError(.failed, .noObject(function: "avfilter_graph_alloc")) }
        self.graph = graph
        var code = cff_avfilter_graph_parse_closed(graph, description)
        if code >= 0 { code = cff_avfilter_graph_config(graph) }
        var video: UnsafeMutablePointer<AVFilterContext>?
        var audio: UnsafeMutablePointer<AVFilterContext>?
        var index: UInt32 = 0
        while code >= 0, let filter = cff_avfilter_graph_filter(graph, index) {
            switch String(cString: cff_avfilter_kind(filter)) {
            case "buffersink": video = filter
            case "abuffersink": audio = filter
            default: break
            }
            index += 1
        }
        self.video = video
        self.audio = audio
        videoEnded = video == nil
        audioEnded = audio == nil
        // (deinit frees the graph from here on, on a failure too)
        if code < 0 { throw MediaError.from(code, "avfilter_graph_parse (\(description.prefix(200)))") }
        if let audio, let audioFrameSamples { cff_av_buffersink_set_frame_size(audio, UInt32(audioFrameSamples)) }
    }

    deinit {
        cff_avfilter_graph_free(&graph)
    }

    /// The time base of the pictures' and the sound's timestamps.
    var videoTimeBase: AVRational { video.map { cff_av_buffersink_get_time_base($0) } ?? AVRational(num: 1, den: 1) }
    var audioTimeBase: AVRational { audio.map { cff_av_buffersink_get_time_base($0) } ?? AVRational(num: 1, den: 1) }

    /// The next picture into `frame` (unreferenced first); false once the pictures have ended.
    func nextPicture(into frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Bool {
        guard let video, !videoEnded else { return false }
        if try next(from: video, into: frame) { return true }
        videoEnded = true
        return false
    }

    /// The next sound frame into `frame`; false once the sound has ended.
    func nextSound(into frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Bool {
        guard let audio, !audioEnded else { return false }
        if try next(from: audio, into: frame) { return true }
        audioEnded = true
        return false
    }

    private func next(from sink: UnsafeMutablePointer<AVFilterContext>, into frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Bool {
        cff_av_frame_unref(frame)
        // A graph made only of sources never answers EAGAIN: each request runs it until a frame
        // reaches this sink or its inputs end.
        let code = cff_av_buffersink_get_frame(sink, frame)
        if code == CFF_AVERROR_EOF { return false }
        try MediaError.check(code, "av_buffersink_get_frame")
        return true
    }

    /// `value` as one option value inside a filter-graph description: escaped for the filter's
    /// options (`\ ' :`), then for the graph (`\ ' [ ] , ;`), as FFmpeg's "Notes on filtergraph
    /// escaping" describe. Leading and trailing blanks, which the parser would trim, are escaped too.
    static func escaped(_ value: String) -> String {
        func escape(_ text: String, _ special: Set<Character>) -> String {
            var out = ""
            let characters = Array(text)
            for (i, character) in characters.enumerated() {
                let edge = (i == 0 || i == characters.count - 1) && (character == " " || character == "\t" || character == "\n" || character == "\r")
                if special.contains(character) || edge { out.append("\\") }
                out.append(character)
            }
            return out
        }
        return escape(escape(value, ["\\", "'", ":"]), ["\\", "'", "[", "]", ",", ";"])
    }
}

extension FFmpegLibraries {
    private static let filtersLoaded: String? = cff_load_filters().map { String(cString: $0) }

    /// Opens libavfilter once (after the other libraries); only the highlight reel needs it.
    static func loadFilters() throws(MediaError) {
        try load()
        if let failure = filtersLoaded {
            throw MediaError(.missingCodec, .filterLibraryUnloadable(loader: failure))
        }
    }
}
