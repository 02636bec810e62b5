internal import CFFmpeg
import Dispatch
import Synchronization
internal import SystemSupport
import AudioCapture
import MediaValues

/// Encodes and muxes on a thread of its own, so that capturing and converting the next frame
/// overlaps encoding the previous one. Sound, when the shot has it, is encoded on the same thread,
/// in the order it was handed over, so the file has one writer.
///
/// Two pictures circulate: the caller fills one while the encoding thread works on the other. When
/// both are taken the caller waits, so a slow encoder holds back the capture loop (a live camera
/// then drops frames in its own queue, counted) instead of growing memory.
///
/// The encoding thread (`recorder-encode`) lives as long as the shot: started with the pipeline,
/// it ends at `finish` or `abandon`, whichever comes first.
///
/// `@unchecked Sendable`: the encoder and the writer are used only on the encoding thread while it
/// runs; the caller reaches them again only after `finish` or `abandon` has waited for the thread
/// to end. The filling side (`encode`) is called from one thread at a time. Jobs and failures cross
/// over behind a mutex.
final class EncodePipeline: @unchecked Sendable {
    private struct State {
        var failure: MediaError?
        var abandoned = false
        var jobs: [Job] = []
        /// Set once the thread has been told to end (by `finish` or `abandon`).
        var ending = false
    }

    private enum Job {
        case encode(picture: Int)
        /// Sound to encode, timed from `origin` and cut at `end`; `last` flushes the sound encoder.
        case audio([AudioChunk], origin: Int64, end: Int64?, last: Bool)
        /// Drain the encoder into the file (unless abandoned), then end the thread.
        case finish
        /// End the thread, skipping whatever is queued.
        case end
    }

    private let encoder: H264Encoder
    private let audio: AACEncoder?
    private let writer: MP4Writer
    private let timeBase: AVRational
    private let frameTicks: Int64
    private let pictures: [UnsafeMutablePointer<AVFrame>]
    private var nextPicture = 0
    private let freePictures: DispatchSemaphore
    /// One signal per queued job.
    private let jobReady = DispatchSemaphore(value: 0)
    /// Signalled by the thread as it ends.
    private let ended = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    /// - Parameters:
    ///   - timeBase: the time base of the pts given to `encode`.
    ///   - frameTicks: a frame's duration in `timeBase`, for packets the encoder leaves without one.
    init(encoder: H264Encoder, audio: AACEncoder?, writer: MP4Writer, timeBase: AVRational, frameTicks: Int64) throws(MediaError) {
        self.encoder = encoder
        self.audio = audio
        self.writer = writer
        self.timeBase = timeBase
        self.frameTicks = frameTicks
        var pictures: [UnsafeMutablePointer<AVFrame>] = []
        do {
            for _ in 0..<2 {
                pictures.append(try PixelConverter.makePicture(width: Int(encoder.context.pointee.width),
                                                               height: Int(encoder.context.pointee.height)))
            }
        } catch {
            for picture in pictures { PixelConverter.freePicture(picture) }
            throw error
        }
        self.pictures = pictures
        freePictures = DispatchSemaphore(value: pictures.count)
        WorkerThread.start(name: "recorder-encode", stackSize: 4 << 20) { [self] in run() }
    }

    deinit {
        for picture in pictures { PixelConverter.freePicture(picture) }
    }

    /// Throws the encoding thread's first failure, if it had one.
    func throwIfFailed() throws(MediaError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Waits for a free picture, lets `fill` write into it and return its pts, and queues it for
    /// encoding. Returns false when `fill` returned nil: nothing is queued then.
    func encode<E: Error>(fill: (UnsafeMutablePointer<AVFrame>) throws(E) -> Int64?) throws(E) -> Bool {
        let picture = reserve()
        let pts: Int64?
        do { pts = try fill(picture) } catch {
            release()
            throw error
        }
        guard let pts else {
            release()
            return false
        }
        return queue(pts: pts)
    }

    /// Waits for a free picture and lends it to the caller until `queue` or `release`: one at a
    /// time (the next picture in turn).
    func reserve() -> UnsafeMutablePointer<AVFrame> {
        freePictures.wait()
        return pictures[nextPicture]
    }

    /// Queues the reserved picture for encoding at `pts`; false when the pipeline has ended
    /// (after finish or abandon), and then the picture is free again.
    func queue(pts: Int64) -> Bool {
        pictures[nextPicture].pointee.pts = pts
        let index = nextPicture
        nextPicture = (nextPicture + 1) % pictures.count
        guard submit(.encode(picture: index)) else {
            // Called after finish or abandon: nothing will encode it.
            freePictures.signal()
            return false
        }
        return true
    }

    /// Gives the reserved picture back unused.
    func release() {
        freePictures.signal()
    }

    /// Queues sound for the encoding thread (see `AACEncoder.append`); `last` flushes it after.
    func encodeAudio(_ chunks: [AudioChunk], origin: Int64, end: Int64?, last: Bool) {
        guard audio != nil, !chunks.isEmpty || last else { return }
        submit(.audio(chunks, origin: origin, end: end, last: last))
    }

    /// Waits for every queued picture, drains the encoder into the file, and reports the first failure.
    func finish() throws(MediaError) {
        if submit(.finish) { ended.wait() }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Skips whatever is still queued and waits until the encoding thread has ended.
    func abandon() {
        state.withLock { $0.abandoned = true }
        if submit(.end) { ended.wait() }
    }

    /// Queues a job for the thread; false (and nothing queued) once the thread was told to end.
    @discardableResult
    private func submit(_ job: Job) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.ending else { return false }
            switch job {
            case .encode, .audio: break
            case .finish, .end: state.ending = true
            }
            state.jobs.append(job)
            return true
        }
        if accepted { jobReady.signal() }
        return accepted
    }

    /// The encoding thread: jobs in order until `finish` or `end`.
    private func run() {
        while true {
            jobReady.wait()
            guard let job = state.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) else { continue }
            switch job {
            case .encode(let index):
                encode(pictures[index])
                freePictures.signal()
            case .audio(let chunks, let origin, let end, let last):
                writeAudio(chunks, origin: origin, end: end, last: last)
            case .finish:
                encode(nil)
                ended.signal()
                return
            case .end:
                ended.signal()
                return
            }
        }
    }

    /// Encodes sound into the file on the encoding thread, unless a failure or `abandon` came first.
    private func writeAudio(_ chunks: [AudioChunk], origin: Int64, end: Int64?, last: Bool) {
        guard let audio, state.withLock({ $0.failure == nil && !$0.abandoned }) else { return }
        do throws(MediaError) {
            let base = audio.codecContext.pointee.time_base
            for chunk in chunks {
                try audio.append(chunk, origin: origin, end: end) { packet throws(MediaError) in
                    try writer.writeAudio(packet, from: base)
                }
            }
            if last {
                try audio.finish { packet throws(MediaError) in try writer.writeAudio(packet, from: base) }
            }
        } catch {
            state.withLock { $0.failure = $0.failure ?? error }
        }
    }

    /// Encodes `picture` (nil: drains the encoder) into the file, unless a failure or `abandon`
    /// came first; the first failure is kept.
    private func encode(_ picture: UnsafeMutablePointer<AVFrame>?) {
        guard state.withLock({ $0.failure == nil && !$0.abandoned }) else { return }
        do throws(MediaError) {
            try encoder.encode(picture) { packet throws(MediaError) in
                try writer.write(packet, from: timeBase, defaultDuration: frameTicks)
            }
        } catch {
            state.withLock { $0.failure = $0.failure ?? error }
        }
    }
}
