internal import CFFmpeg
import Dispatch
import Synchronization

/// Encodes and muxes on a thread of its own, so that capturing and converting the next frame
/// overlaps encoding the previous one.
///
/// Two pictures circulate: the caller fills one while the encoding thread works on the other. When
/// both are taken the caller waits, so a slow encoder holds back the capture loop (a live camera
/// then drops frames in its own queue, counted) instead of growing memory.
///
/// `@unchecked Sendable`: the encoder and the writer are used only on `queue` while it runs; the
/// caller reaches them again only after `finish` or `abandon` has waited for the queue. The filling
/// side (`encode`) is called from one thread at a time. Failures cross over behind a mutex.
final class EncodePipeline: @unchecked Sendable {
    private struct State {
        var failure: MediaError?
        var abandoned = false
    }

    private let encoder: H264Encoder
    private let writer: MP4Writer
    private let timeBase: AVRational
    private let frameTicks: Int64
    private let pictures: [UnsafeMutablePointer<AVFrame>]
    private var nextPicture = 0
    private let queue = DispatchQueue(label: "recorder.encode", qos: .userInitiated)
    private let freePictures: DispatchSemaphore
    private let state = Mutex(State())

    /// - Parameters:
    ///   - timeBase: the time base of the pts given to `encode`.
    ///   - frameTicks: a frame's duration in `timeBase`, for packets the encoder leaves without one.
    init(encoder: H264Encoder, writer: MP4Writer, timeBase: AVRational, frameTicks: Int64) throws(MediaError) {
        self.encoder = encoder
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
        freePictures.wait()
        let picture = pictures[nextPicture]
        let pts: Int64?
        do { pts = try fill(picture) } catch {
            freePictures.signal()
            throw error
        }
        guard let pts else {
            freePictures.signal()
            return false
        }
        picture.pointee.pts = pts
        let index = nextPicture
        nextPicture = (nextPicture + 1) % pictures.count
        queue.async { [self] in
            let picture = pictures[index]
            defer { freePictures.signal() }
            guard state.withLock({ $0.failure == nil && !$0.abandoned }) else { return }
            do throws(MediaError) {
                try encoder.encode(picture) { packet throws(MediaError) in
                    try writer.write(packet, from: timeBase, defaultDuration: frameTicks)
                }
            } catch {
                state.withLock { $0.failure = $0.failure ?? error }
            }
        }
        return true
    }

    /// Waits for every queued picture, drains the encoder into the file, and reports the first failure.
    func finish() throws(MediaError) {
        queue.sync {
            guard state.withLock({ $0.failure == nil && !$0.abandoned }) else { return }
            do throws(MediaError) {
                try encoder.encode(nil) { packet throws(MediaError) in
                    try writer.write(packet, from: timeBase, defaultDuration: frameTicks)
                }
            } catch {
                state.withLock { $0.failure = error }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Skips whatever is still queued and waits until the encoding thread is idle.
    func abandon() {
        state.withLock { $0.abandoned = true }
        queue.sync {}
    }
}
