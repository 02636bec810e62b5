internal import CFFmpeg
import AudioCapture
import Glibc
import SystemSupport
package import MediaValues

/// One MP4 made of parts one after another (title cards and video clips), for the event's
/// highlight reel: each part is brought to the reel's picture size, frame rate and sound format by
/// a libavfilter graph of its own (one part open at a time, whatever the number of parts), then
/// encoded once, libx264 and AAC, into a file that starts playing before it is all loaded
/// (faststart).
///
/// The sound follows the pictures part by part: a part's sound is cut where its pictures end, and
/// a part without sound (a card, a clip recorded without a microphone) is silence as long as its
/// pictures, so the reel's sound is continuous and each clip's stays in sync with its pictures.
package final class ReelWriter {
    /// The reel's pictures and sound.
    package struct Format: Sendable, Hashable {
        package var width: Int
        package var height: Int
        package var frameRate: Int
        package var sampleRate = 48_000
        /// Sound channels, 1 or 2; 0 for a file without sound.
        package var channels = 2
        /// Ticks a second of the pictures' timestamps (nil: the frame rate). A shot's own is
        /// 90 kHz: with the same clock, the same x264 settings and the same size, libx264 writes
        /// the same sequence header as it did for the shot, so parts made here can be joined to
        /// the shot without encoding it again (`ClipJoiner`).
        package var clock: Int32?

        package init(width: Int, height: Int, frameRate: Int, sampleRate: Int = 48_000, channels: Int = 2, clock: Int32? = nil) {
            (self.width, self.height, self.frameRate) = (width, height, frameRate)
            (self.sampleRate, self.channels, self.clock) = (sampleRate, channels, clock)
        }

        /// The pictures' time base.
        var timeBase: AVRational { AVRational(num: 1, den: clock ?? Int32(frameRate)) }
    }

    /// A title card's lines, from the top, each with its share of the picture's height as its size.
    package struct CardLine: Sendable, Hashable {
        package var text: String
        package var size: Double
        package init(_ text: String, size: Double) { (self.text, self.size) = (text, size) }
    }

    /// An integrated loudness (LUFS) and true peak (dBTP) measured by libavfilter's `ebur128`.
    package struct Loudness: Sendable, Hashable {
        package var integrated: Double
        package var truePeak: Double
    }

    package let path: String
    package let format: Format
    private let writer: MP4Writer
    private let video: H264Encoder
    /// nil for a file without sound.
    private let audio: AACEncoder?
    private let frame: UnsafeMutablePointer<AVFrame>
    private let sound: UnsafeMutablePointer<AVFrame>
    /// Pictures written so far: the next picture's timestamp, in 1/frameRate.
    private(set) var pictures: Int64 = 0
    /// Where the sound written so far ends, in samples from the reel's start.
    private var soundEnd: Int64 = 0
    private let scratch: String

    /// - Parameter scratch: a private directory for the cards' texts (read by `ass`).
    package init(path: String, format: Format, settings: EncoderSettings, scratch: String) throws(MediaError) {
        guard format.width >= 16, format.height >= 16, format.width % 2 == 0, format.height % 2 == 0,
              (1...120).contains(format.frameRate), (0...2).contains(format.channels), (8_000...192_000).contains(format.sampleRate),
              (format.clock ?? 1) > 0 else {
            throw MediaError(.badInput, .reelFormat(width: format.width, height: format.height, frameRate: format.frameRate, channels: format.channels))
        }
        try FFmpegLibraries.loadFilters()
        self.path = path
        self.format = format
        self.scratch = scratch
        writer = try MP4Writer(path: path, fragmented: false)
        audio = format.channels == 0 ? nil
            : try AACEncoder(input: AudioFormat(sampleRate: format.sampleRate, channels: format.channels, sampleFormat: .float32),
                             bitRate: settings.audioBitRate)
        video = try H264Encoder(width: format.width, height: format.height, frameRate: Double(format.frameRate),
                                timeBase: format.timeBase, settings: settings,
                                globalHeader: writer.wantsGlobalHeader)
        guard let frame = cff_av_frame_alloc() else { throw MediaError(.failed, .noObject(function: "av_frame_alloc")) }
        guard let sound = cff_av_frame_alloc() else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            cff_av_frame_free(&f)
            throw MediaError(.failed, .noObject(function: "av_frame_alloc"))
        }
        (self.frame, self.sound) = (frame, sound)
        try writer.configure(from: video.context)
        if let audio { try writer.addAudio(from: audio.codecContext) }
        try writer.writeHeader()
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        cff_av_frame_free(&f)
        var s: UnsafeMutablePointer<AVFrame>? = sound
        cff_av_frame_free(&s)
        writer.abandon()
    }

    /// The reel's length so far, in seconds.
    package var seconds: Double { Double(pictures) / Double(format.frameRate) }

    /// The cards' colour, which fades pass through.
    static let cardColour = "0x16161d"

    /// A title card: `lines` centred on a dark picture for `seconds`, with silence; with `fade`
    /// seconds its text fades in and out.
    package func appendCard(_ lines: [CardLine], seconds: Double, fade: Double = 0) throws(MediaError) {
        var chain = "color=c=\(Self.cardColour):s=\(format.width)x\(format.height):r=\(format.frameRate):d=\(String(cFormat: "%.3f", seconds)),format=yuv420p"
        // The lines as a subtitle libass draws (`CardSubtitle`: emoji and right-to-left text
        // included), read from a file in the scratch folder.
        if !lines.isEmpty {
            let file = "\(scratch)/card.ass"
            try Self.write(CardSubtitle.document(lines, width: format.width, height: format.height, seconds: seconds), to: file)
            chain += ",ass=filename=\(FilterGraph.escaped(file))"
        }
        chain += Self.fades(start: 0, length: seconds, fade: fade)
        // (`fade` to a colour works in RGB: back to 4:2:0 at the end)
        let graph = try FilterGraph(chain + ",setsar=1,format=yuv420p[v];[v]buffersink")
        let start = soundEnd
        while try graph.nextPicture(into: frame) { try encodePicture() }
        try padSound(to: soundPosition(ofPicture: pictures), from: start)
    }

    /// A video clip (the `movie` source reads `clipPath`), scaled into the reel's picture (aspect
    /// kept, bars around it), at the reel's rate, its sound turned up or down by `gain` dB.
    /// With `fade` seconds its pictures fade in from the cards' colour and out to it, and its
    /// sound in from silence and out to it. Returns the seconds it added.
    @discardableResult
    package func appendClip(_ clipPath: String, gain: Double, fade: Double = 0) throws(MediaError) -> Double {
        let input = try MediaInput(path: clipPath)
        let hasSound = input.audioStream != nil && audio != nil
        let (w, h, r) = (format.width, format.height, format.frameRate)
        let stream = input.videoStream.pointee
        let duration = stream.duration > 0 ? Double(stream.duration) * av_q2d(stream.time_base)
            : Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
        // `fps` ends a clip at its last picture's start, a frame short: the last picture is held a
        // moment longer (tpad) and the clip cut at its own length (trim), so each clip keeps its length.
        let start = stream.start_time != CFF_AV_NOPTS_VALUE ? Double(stream.start_time) * av_q2d(stream.time_base) : 0
        let length = duration > 0 ? (pre: "tpad=stop_mode=clone:stop_duration=1,", post: ",trim=duration=\(String(cFormat: "%.6f", duration))") : (pre: "", post: "")
        // (fades on the clip's own clock: its pictures start at `start`, and its sound is placed against them)
        let fades = duration > 0 ? Self.fades(start: start, length: duration, fade: fade) : ""
        var description = "movie=\(FilterGraph.escaped(clipPath)):s=dv\(hasSound ? "+da" : "")[in]\(hasSound ? "[ain]" : "");"
            + "[in]\(length.pre)scale=\(w):\(h):force_original_aspect_ratio=decrease,pad=\(w):\(h):(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,fps=\(r)\(length.post)\(fades),format=yuv420p[v];[v]buffersink"
        if hasSound {
            let soundFades = duration > 0 ? Self.fades(start: start, length: duration, fade: fade, sound: true) : ""
            description += ";[ain]volume=\(String(cFormat: "%.2f", gain))dB:precision=float\(soundFades),aresample=\(format.sampleRate),aformat=sample_fmts=flt:sample_rates=\(format.sampleRate):channel_layouts=\(format.channels == 1 ? "mono" : "stereo")[a];[a]abuffersink"
        }
        let graph = try FilterGraph(description, audioFrameSamples: 1024)
        let startPicture = pictures
        let startSound = soundEnd
        // The clip's own clock: its first picture is the part's start, its sound placed against it.
        var origin: Double?
        var pendingSound = false
        while try graph.nextPicture(into: frame) {
            let time = Double(frame.pointee.pts) * av_q2d(graph.videoTimeBase)
            if origin == nil { origin = time }
            let pictureEnd = time - origin! + 1 / Double(r)
            // Sound up to this picture's end, so the file is interleaved as it is written.
            while true {
                if !pendingSound {
                    guard try graph.nextSound(into: sound) else { break }
                    pendingSound = true
                }
                let soundTime = Double(sound.pointee.pts) * av_q2d(graph.audioTimeBase) - origin!
                guard soundTime < pictureEnd else { break }
                // (whole: only the clip's end cuts its sound)
                try encodeSound(at: soundTime, partStart: startSound, limit: .max)
                pendingSound = false
            }
            try encodePicture()
        }
        guard pictures > startPicture, let origin else {
            throw MediaError(.badInput, .noDecodablePicture, path: clipPath)
        }
        // The rest of its sound, up to the end of its pictures.
        let end = soundPosition(ofPicture: pictures)
        while true {
            if !pendingSound {
                guard try graph.nextSound(into: sound) else { break }
            }
            pendingSound = false
            try encodeSound(at: Double(sound.pointee.pts) * av_q2d(graph.audioTimeBase) - origin, partStart: startSound, limit: end)
        }
        try padSound(to: soundPosition(ofPicture: pictures), from: soundEnd)
        return Double(pictures - startPicture) / Double(r)
    }

    /// A still picture (a PNG or JPEG, read by the `movie` source) for `seconds`, scaled into the
    /// reel's picture like a clip, with silence.
    package func appendStill(_ imagePath: String, seconds: Double) throws(MediaError) {
        let (w, h, r) = (format.width, format.height, format.frameRate)
        let length = String(cFormat: "%.6f", seconds)
        // One decoded picture, held (tpad) for the part's length, then at the reel's rate (`fps`
        // first would end at the lone picture's start and put out nothing).
        let graph = try FilterGraph("movie=\(FilterGraph.escaped(imagePath))[in];"
            + "[in]scale=\(w):\(h):force_original_aspect_ratio=decrease,pad=\(w):\(h):(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,"
            + "format=yuv420p,tpad=stop_mode=clone:stop_duration=\(length),fps=\(r),trim=duration=\(length),setpts=PTS-STARTPTS[v];[v]buffersink")
        let start = soundEnd
        let first = pictures
        while try graph.nextPicture(into: frame) { try encodePicture() }
        guard pictures > first else {
            throw MediaError(.badInput, .noDecodablePicture, path: imagePath)
        }
        try padSound(to: soundPosition(ofPicture: pictures), from: start)
    }

    /// `fade` and `afade` filters (with a leading comma) for a part from `start` lasting `length`
    /// seconds: in over its first `fade` seconds, out over its last; none for no fade. A fade
    /// is at most a third of the part.
    static func fades(start: Double, length: Double, fade: Double, sound: Bool = false) -> String {
        let fade = min(fade, length / 3)
        guard fade > 0 else { return "" }
        let (inAt, outAt, d) = (String(cFormat: "%.6f", start), String(cFormat: "%.6f", start + length - fade), String(cFormat: "%.6f", fade))
        return sound ? ",afade=t=in:st=\(inAt):d=\(d),afade=t=out:st=\(outAt):d=\(d)"
            : ",fade=t=in:st=\(inAt):d=\(d):color=\(cardColour),fade=t=out:st=\(outAt):d=\(d):color=\(cardColour)"
    }

    /// Writes the rest and closes the file.
    package func finish() throws(MediaError) {
        if let audio {
            let base = audio.codecContext.pointee.time_base
            try audio.finish { packet throws(MediaError) in try writer.writeAudio(packet, from: base) }
        }
        let (timeBase, tick) = (format.timeBase, pictureTicks)
        try video.encode(nil) { packet throws(MediaError) in try writer.write(packet, from: timeBase, defaultDuration: tick) }
        try writer.finish()
    }

    /// Measures the sound of `path` (nil when it has none, or only silence below the gate).
    package static func loudness(of path: String) throws(MediaError) -> Loudness? {
        let input = try MediaInput(path: path)
        guard input.audioStream != nil else { return nil }
        let graph = try FilterGraph("amovie=\(FilterGraph.escaped(path)),ebur128=peak=true:metadata=1[a];[a]abuffersink")
        guard let frame = cff_av_frame_alloc() else { throw MediaError(.failed, .noObject(function: "av_frame_alloc")) }
        var f: UnsafeMutablePointer<AVFrame>? = frame
        defer { cff_av_frame_free(&f) }
        var integrated: Double?
        var peak = 0.0
        while try graph.nextSound(into: frame) {
            if let value = Self.metadata(frame, "lavfi.r128.I") { integrated = value }
            if let value = Self.metadata(frame, "lavfi.r128.true_peak") { peak = max(peak, value) }
        }
        // ebur128 reports -70 LUFS (its absolute gate) for silence.
        guard let integrated, integrated > -69.9, peak > 0 else { return nil }
        return Loudness(integrated: integrated, truePeak: 20 * log10(peak))
    }

    private static func metadata(_ frame: UnsafeMutablePointer<AVFrame>, _ key: String) -> Double? {
        guard let entry = cff_av_dict_get(frame.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        return Double(String(cString: value))
    }

    private func encodePicture() throws(MediaError) {
        // Every graph ends in format=yuv420p; a graph that does not is a mistake here, said as one.
        guard frame.pointee.format == AV_PIX_FMT_YUV420P.rawValue, frame.pointee.width == Int32(format.width), frame.pointee.height == Int32(format.height) else {
            throw MediaError(.failed, .reelPartFormat(format: frame.pointee.format, width: Int(frame.pointee.width), height: Int(frame.pointee.height), reelWidth: format.width, reelHeight: format.height))
        }
        frame.pointee.pts = pictures * Int64(format.clock ?? Int32(format.frameRate)) / Int64(format.frameRate)
        // A decoded keyframe must not force one here: the reel keeps its own keyframe interval.
        frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
        pictures += 1
        let (timeBase, tick) = (format.timeBase, pictureTicks)
        try video.encode(frame) { packet throws(MediaError) in try writer.write(packet, from: timeBase, defaultDuration: tick) }
    }

    /// One picture's length in the pictures' time base.
    private var pictureTicks: Int64 { max(Int64(format.clock ?? Int32(format.frameRate)) / Int64(format.frameRate), 1) }

    /// The sample at which picture `index` starts.
    private func soundPosition(ofPicture index: Int64) -> Int64 {
        index * Int64(format.sampleRate) / Int64(format.frameRate)
    }

    /// The `sound` frame (interleaved float) at `time` seconds into a part that began at
    /// sample `partStart`: what falls before the part's start or at or past sample `limit` is cut.
    private func encodeSound(at time: Double, partStart: Int64, limit end: Int64) throws(MediaError) {
        let count = Int(sound.pointee.nb_samples), width = format.channels * 4
        guard count > 0, let data = sound.pointee.data.0 else { return }
        var position = partStart + Int64((time * Double(format.sampleRate)).rounded())
        var first = 0
        // (overlapping the sound already written: its start is cut, never written twice)
        if position < soundEnd { first = Int(min(soundEnd - position, Int64(count))); position = soundEnd }
        let last = min(count, first + Int(max(end - position, 0)))
        guard last > first else { return }
        // A gap before it (a clip whose sound starts late) is silence.
        try padSound(to: position, from: soundEnd)
        try writeSound(Array(UnsafeBufferPointer(start: data + first * width, count: (last - first) * width)), at: position)
    }

    /// Silence from `start` to `end` samples, in 1024-sample chunks.
    private func padSound(to end: Int64, from start: Int64) throws(MediaError) {
        guard audio != nil else { return }
        var position = max(start, soundEnd)
        while position < end {
            let count = Int(min(1024, end - position))
            try writeSound([UInt8](repeating: 0, count: count * format.channels * 4), at: position)
            position += Int64(count)
        }
    }

    /// Interleaved float samples placed at sample `position` of the reel. (Their time goes
    /// to the encoder in microseconds, on which it keeps the sound exactly where it is put.)
    private func writeSound(_ bytes: [UInt8], at position: Int64) throws(MediaError) {
        guard let audio else { return }
        let frames = bytes.count / (format.channels * 4)
        let chunk = AudioChunk(bytes: bytes, frames: frames, timestampMicroseconds: position * 1_000_000 / Int64(format.sampleRate))
        let base = audio.codecContext.pointee.time_base
        try audio.append(chunk, origin: 0, end: nil) { packet throws(MediaError) in try writer.writeAudio(packet, from: base) }
        soundEnd = position + Int64(frames)
    }

    private static func write(_ text: String, to path: String) throws(MediaError) {
        do throws(FileSystem.Failure) { try FileSystem.writeDurably(Array(text.utf8), to: path) } catch {
            throw MediaError(.failed, .system(function: error.operation, errno: error.errno.code), code: error.errno.code, path: path)
        }
    }
}
