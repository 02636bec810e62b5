internal import CFFmpeg
package import VideoCapture
package import AudioCapture
package import MediaValues

/// The sound track of a recording, as written.
package struct AudioTrackSummary: Sendable, Hashable {
    /// "aac".
    package var codec: String
    package var sampleRate: Int
    package var channels: Int
    package var bitRate: Int
    /// Seconds of sound in the track (silence filled into gaps included).
    package var seconds: Double
}

/// What one recording produced, as counted while writing it.
package struct EncodingSummary: Sendable, Hashable {
    package var framesWritten: Int
    /// Frames the driver dropped (sequence gaps) or delivered damaged.
    package var framesDropped: Int
    /// Frames from an H.264 camera before its first keyframe, which cannot be decoded alone.
    package var framesSkipped: Int
    /// Buffers the driver handed over a second time with a sequence number already recorded
    /// (v4l2loopback re-reads its last frame when the writer lags); recorded once, never twice.
    package var framesRepeated: Int = 0
    /// "libx264" or "copy" (H.264 from the camera, not re-encoded).
    package var encoder: String
    package var input: CaptureFormat
    /// The sound track; nil for a silent recording.
    package var audio: AudioTrackSummary?
    /// The capture time of the first recorded frame (the file's time 0), in microseconds.
    package var firstTimestamp: Int64?
    /// Time from the first frame to the end of the last, from the capture timestamps: the last
    /// lasts one frame, or until the end of the asked length when the shot ran to it.
    package var durationSeconds: Double
}

/// Turns captured frames into a crash-safe, fragmented H.264 MP4.
///
/// Raw formats are converted with libswscale (planar 4:2:0 is copied), MJPEG is
/// decoded first, and H.264 is copied without re-encoding. Conversion happens on the caller's
/// thread and encoding on the pipeline's, so the two overlap. Timestamps come from the frames, so
/// the file's duration stays true when the camera drops frames.
package final class MP4Encoder {
    package let path: String
    package let input: CaptureFormat
    private let writer: MP4Writer
    private let pipeline: EncodePipeline?
    private let converter: PixelConverter?
    private let decoder: MJPEGDecoder?
    private let copyPacket: OwnedPacket
    private let audio: AACEncoder?
    /// The branding frame at this recording's size, blended onto each picture before encoding.
    private let overlay: PictureOverlay.Rendered?
    /// Sound not yet encoded: it waits for the picture to catch up (and for the first picture,
    /// which sets the origin), so nothing is written past the picture's end.
    private var pendingAudio: [AudioChunk] = []

    /// Encoder-side time base: 90 kHz, the MPEG convention, exact for every common frame rate.
    private let timeBase = AVRational(num: 1, den: 90_000)
    private let frameTicks: Int64
    private var firstTimestamp: Int64?
    private var lastTimestamp: Int64 = 0
    private var lastPts: Int64 = -1
    private var lastStamp: FrameStamp?
    /// The picture lent out by `reservePicture`, until it is committed or released.
    private var reservedPicture: UnsafeMutablePointer<AVFrame>?
    private var summary: EncodingSummary
    /// Called with each frame's stamp once it is queued for the file, in order: a diagnostic
    /// (`RECORDER_FRAME_LOG`) that lets tests compare what was recorded with what the device sent.
    package var onFrameRecorded: ((FrameStamp) -> Void)?

    /// - Parameter audio: the format of the sound to record with the picture; nil for none.
    package init(path: String, input: CaptureFormat, settings: EncoderSettings, audio audioFormat: AudioFormat? = nil) throws(MediaError) {
        guard input.width >= 16, input.height >= 16, input.width % 2 == 0, input.height % 2 == 0 else {
            throw MediaError(.badInput, .sizeNotEncodable(width: input.width, height: input.height))
        }
        try FFmpegLibraries.load()
        self.path = path
        self.input = input
        frameTicks = max(Int64((90_000.0 / max(input.frameRate.value, 1)).rounded()), 1)
        copyPacket = try OwnedPacket()
        writer = try MP4Writer(path: path, fragmented: true)
        summary = EncodingSummary(framesWritten: 0, framesDropped: 0, framesSkipped: 0, encoder: "copy", input: input,
                                  durationSeconds: 0)
        audio = try audioFormat.map { format throws(MediaError) in try AACEncoder(input: format, bitRate: settings.audioBitRate) }
        if let audio { try writer.addAudio(from: audio.codecContext) }
        if input.pixelFormat == .h264 {
            if settings.overlay != nil {
                throw MediaError(.badInput, .overlayOnH264)
            }
            overlay = nil
            pipeline = nil
            converter = nil
            decoder = nil
            return
        }
        overlay = try settings.overlay?.rendered(width: input.width, height: input.height)
        let encoder = try H264Encoder(width: input.width, height: input.height, frameRate: input.frameRate.value,
                                      timeBase: timeBase, settings: settings, globalHeader: writer.wantsGlobalHeader)
        summary.encoder = encoder.name
        decoder = input.pixelFormat == .mjpeg || input.pixelFormat == .jpeg ? try MJPEGDecoder() : nil
        // Planar 4:2:0 goes through the converter too (a plain copy in libswscale): into the
        // pipeline's reused, reference-counted pictures, where handing libavcodec a borrowed buffer
        // made it allocate and copy into fresh pages for every frame (8% of the CPU at 720p), and a
        // borrowed buffer could not outlive the source's closure while the picture waits its turn.
        converter = PixelConverter()
        try writer.configure(from: encoder.context)
        try writer.writeHeader()
        pipeline = try EncodePipeline(encoder: encoder, audio: audio, writer: writer, timeBase: timeBase, frameTicks: frameTicks)
    }

    package var framesWritten: Int { summary.framesWritten }
    package var framesDropped: Int { summary.framesDropped }

    /// Converts one frame and queues it for encoding. Damaged frames and JPEGs that do not decode
    /// are counted as dropped. An encoding failure surfaces here on a later frame, or at `finish`.
    package func append(_ frame: borrowing VideoFrame) throws(MediaError) {
        guard account(frame.stamp, damaged: frame.isDamaged) else { return }
        let pts = nextPts(frame.timestampMicroseconds)
        if let pipeline {
            try pipeline.throwIfFailed()
            let overlay = self.overlay
            guard try pipeline.encode(fill: { picture throws(MediaError) in
                guard try fill(picture, from: frame) else { return nil }
                if let overlay { PictureOverlay.blend(overlay, into: picture) }
                return pts
            }) else {
                summary.framesDropped += 1
                return
            }
        } else if try !copy(frame, pts: pts) {
            return
        }
        summary.framesWritten += 1
        lastTimestamp = frame.timestampMicroseconds
        onFrameRecorded?(frame.stamp)
    }

    /// Whether `reservePicture` applies: planar 4:2:0 input, which the encoder takes as it is.
    package var readsPlanarFrames: Bool { pipeline != nil && input.pixelFormat == .yu12 }

    /// The encoder's next picture, lent out for a frame to be read straight into it (no buffer,
    /// no conversion): the capture loop hands it to its source, then gives it back with
    /// `commitPicture` or `releasePicture`. Waits while the encoder holds both pictures. Only when
    /// `readsPlanarFrames`, and one at a time.
    package func reservePicture() throws(MediaError) -> PlanarPicture {
        guard let pipeline, readsPlanarFrames, reservedPicture == nil else {
            throw MediaError(.failed, .directReadUnavailable)
        }
        try pipeline.throwIfFailed()
        let picture = pipeline.reserve()
        do throws(MediaError) {
            try MediaError.check(cff_av_frame_make_writable(picture), "av_frame_make_writable")
        } catch {
            pipeline.release()
            throw error
        }
        reservedPicture = picture
        return PlanarPicture(picture)
    }

    /// Queues the reserved picture, read with `stamp`, for encoding (with the branding frame
    /// blended on); false when it was not recorded (a repeat of the last frame).
    @discardableResult
    package func commitPicture(_ stamp: FrameStamp) throws(MediaError) -> Bool {
        guard let pipeline, let picture = reservedPicture else {
            throw MediaError(.failed, .noPictureReserved)
        }
        reservedPicture = nil
        guard account(stamp, damaged: false) else {
            pipeline.release()
            return false
        }
        if let overlay { PictureOverlay.blend(overlay, into: picture) }
        guard pipeline.queue(pts: nextPts(stamp.timestampMicroseconds)) else { return false }
        summary.framesWritten += 1
        lastTimestamp = stamp.timestampMicroseconds
        onFrameRecorded?(stamp)
        return true
    }

    /// Gives the reserved picture back unused (the end of the input, a stop, a frame past the
    /// shot's length); nothing when none is reserved.
    package func releasePicture() {
        guard reservedPicture != nil, let pipeline else { return }
        reservedPicture = nil
        pipeline.release()
    }

    /// Counts the frames a sequence gap says were dropped, and a damaged frame; false when the frame
    /// is not to be encoded. The frame just seen, handed over again (same sequence number, no later
    /// timestamp), is a repeat and never recorded twice; a count that goes back is a source that
    /// restarted it (a loopback writer reopened), and a count stuck at 0 (a loopback writer that
    /// queues buffers) says nothing about drops.
    private func account(_ stamp: FrameStamp, damaged: Bool) -> Bool {
        if let last = lastStamp {
            if stamp.sequence == last.sequence && stamp.timestampMicroseconds <= last.timestampMicroseconds {
                summary.framesRepeated += 1
                return false
            }
            if stamp.sequence > last.sequence + 1 {
                summary.framesDropped += Int(stamp.sequence - last.sequence - 1)
            }
        }
        lastStamp = stamp
        if damaged { summary.framesDropped += 1 }
        return !damaged
    }

    deinit {
        // Dropped without finish or abandon (a failed shot's clean-up): its encoding thread ends too.
        pipeline?.abandon()
    }

    /// Whether the recording has a sound track.
    package var recordsAudio: Bool { audio != nil }

    /// Hands over captured sound (in capture order). It is encoded once the picture has reached
    /// it; sound from before the first picture is cut off.
    package func appendAudio(_ chunks: [AudioChunk]) throws(MediaError) {
        guard audio != nil else { return }
        pendingAudio.append(contentsOf: chunks)
        guard let origin = firstTimestamp, writer.isStarted else {
            // No picture yet (a camera's H.264 waits for its first keyframe): keep the last 10 s.
            trimPendingAudio()
            return
        }
        let rate = Int64(max(audio?.input.sampleRate ?? 1, 1))
        let ready = pendingAudio.prefix { $0.timestampMicroseconds + Int64($0.frames) * 1_000_000 / rate <= lastTimestamp }
        guard !ready.isEmpty else { return }
        let chunks = Array(ready)
        pendingAudio.removeFirst(chunks.count)
        try encodeAudio(chunks, origin: origin, end: nil, last: false)
    }

    private func trimPendingAudio() {
        guard let newest = pendingAudio.last else { return }
        let keepFrom = newest.timestampMicroseconds - 10_000_000
        if let first = pendingAudio.firstIndex(where: { $0.timestampMicroseconds >= keepFrom }), first > 0 {
            pendingAudio.removeFirst(first)
        }
    }

    private func encodeAudio(_ chunks: [AudioChunk], origin: Int64, end: Int64?, last: Bool) throws(MediaError) {
        guard let audio else { return }
        if let pipeline {
            try pipeline.throwIfFailed()
            pipeline.encodeAudio(chunks, origin: origin, end: end, last: last)
            return
        }
        let base = audio.codecContext.pointee.time_base
        for chunk in chunks {
            try audio.append(chunk, origin: origin, end: end) { packet throws(MediaError) in try writer.writeAudio(packet, from: base) }
        }
        if last { try audio.finish { packet throws(MediaError) in try writer.writeAudio(packet, from: base) } }
    }

    /// Drains the encoder, writes the trailer and closes the file.
    /// - Parameter endTimestamp: when the recording ran to a set length, the capture time it ends
    ///   at (after the last frame); the summary's duration then reaches it.
    package func finish(endTimestamp: Int64? = nil) throws(MediaError) -> EncodingSummary {
        if audio != nil, let origin = firstTimestamp, writer.isStarted {
            // The sound ends with the picture: at the asked length, or one frame after the last.
            let end = endTimestamp ?? (lastTimestamp + frameTicks * 100 / 9)
            let chunks = pendingAudio
            pendingAudio = []
            do { try encodeAudio(chunks, origin: origin, end: end, last: true) } catch {
                pipeline?.abandon()
                writer.abandon()
                throw error
            }
        }
        if let pipeline {
            do { try pipeline.finish() } catch {
                writer.abandon()
                throw error
            }
        }
        if !writer.isStarted {
            writer.abandon()
            throw MediaError(.badInput, .noFrameRecorded(skipped: summary.framesSkipped, dropped: summary.framesDropped))
        }
        try writer.finish()
        if let first = firstTimestamp, summary.framesWritten > 0 {
            summary.durationSeconds = Double(lastTimestamp - first) / 1_000_000 + Double(frameTicks) / 90_000
            if let endTimestamp, endTimestamp > lastTimestamp {
                summary.durationSeconds = Double(endTimestamp - first) / 1_000_000
            }
        }
        summary.firstTimestamp = firstTimestamp
        if let audio {
            summary.audio = AudioTrackSummary(codec: "aac", sampleRate: Int(audio.sampleRate), channels: Int(audio.channels),
                                              bitRate: audio.bitRate, seconds: Double(audio.samplesEncoded) / Double(audio.sampleRate))
        }
        return summary
    }

    /// What was recorded so far, for a recording that cannot be finished (a full disk).
    package var partialSummary: EncodingSummary { summary }

    /// Stops without finishing: the file keeps every fragment already flushed.
    package func abandon() {
        pipeline?.abandon()
        writer.abandon()
    }

    /// Capture time to 90 kHz ticks from the first frame, strictly increasing.
    private func nextPts(_ timestamp: Int64) -> Int64 {
        let first = firstTimestamp ?? timestamp
        firstTimestamp = first
        var pts = (timestamp - first) * 9 / 100
        if pts <= lastPts { pts = lastPts + 1 }
        lastPts = pts
        return pts
    }

    /// Writes the frame into `picture` as yuv420p; false when a JPEG does not decode or a buffer is short.
    private func fill(_ picture: UnsafeMutablePointer<AVFrame>, from frame: borrowing VideoFrame) throws(MediaError) -> Bool {
        try frame.withBytes { bytes throws(MediaError) in
            if let decoder {
                guard let decoded = decoder.decode(bytes) else { return false }
                try converter!.convert(decoded, into: picture)
                return true
            }
            // A short buffer (a driver hiccup) would make libswscale read past its end.
            guard let base = bytes.baseAddress, bytes.count >= ImagePlanes.requiredBytes(input) else {
                return false
            }
            let planes = ImagePlanes(input, base: base)
            try converter!.convert(planes: planes.data, linesize: planes.linesize, format: input.pixelFormat.avPixelFormat,
                                   width: Int32(input.width), height: Int32(input.height), into: picture)
            return true
        }
    }

    /// H.264 from the camera: start at the first picture that carries SPS/PPS, then copy every access unit.
    private func copy(_ frame: borrowing VideoFrame, pts: Int64) throws(MediaError) -> Bool {
        try frame.withBytes { bytes throws(MediaError) in try copy(bytes, pts: pts) }
    }

    private func copy(_ bytes: UnsafeRawBufferPointer, pts: Int64) throws(MediaError) -> Bool {
        let units = H264Bitstream.nalUnits(bytes)
        let isKeyframe = H264Bitstream.containsIDR(units)
        if !writer.isStarted {
            guard isKeyframe, let extradata = H264Bitstream.parameterSets(bytes, units: units) else {
                summary.framesSkipped += 1
                lastPts = -1
                firstTimestamp = nil
                return false
            }
            try writer.configureH264Copy(width: input.width, height: input.height, timeBase: timeBase,
                                         frameRate: AVRational(num: Int32(input.frameRate.numerator), den: Int32(input.frameRate.denominator)),
                                         extradata: extradata)
            try writer.writeHeader()
        }
        let packet = copyPacket.pointer
        packet.pointee.data = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
        packet.pointee.size = Int32(bytes.count)
        packet.pointee.pts = pts
        packet.pointee.dts = pts
        packet.pointee.duration = frameTicks
        packet.pointee.flags = isKeyframe ? CFF_AV_PKT_FLAG_KEY : 0
        defer {
            packet.pointee.data = nil
            packet.pointee.size = 0
        }
        try writer.write(packet, from: timeBase, defaultDuration: frameTicks)
        return true
    }
}

extension PlanarPicture {
    /// The three planes of a yuv420p picture.
    init(_ frame: UnsafeMutablePointer<AVFrame>) {
        let data = frame.pointee.data, linesize = frame.pointee.linesize
        self.init(planes: [data.0!, data.1!, data.2!], strides: [Int(linesize.0), Int(linesize.1), Int(linesize.2)])
    }
}
