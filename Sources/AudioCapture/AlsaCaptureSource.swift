internal import CAlsa
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
internal import SystemSupport
package import MediaValues

/// A microphone through alsa-lib: open a capture PCM by name, negotiate, then capture on a thread
/// of its own (`recorder-sound`) into a queue the shot's thread takes from.
///
/// Each read is stamped from the driver: `snd_pcm_status` just before the read gives a CLOCK_MONOTONIC
/// time T and the frames A waiting at T, so the first frame read was captured at T - A/rate. A PCM
/// without driver timestamps (a sound-server plugin) is stamped from the clock at the read instead,
/// and says so in `timestampsAreEstimated`. alsa-lib's `null` PCM is no clock at all (its buffer is
/// always full): it is read at real time, by the monotonic clock.
///
/// `@unchecked Sendable`: the PCM handle, the read buffer and the meter are used by the capture
/// thread while it runs, and by `close` only after it has waited for that thread to end; what both
/// sides share (the queue, the counters, the end, the level, the stop request) is behind `state`'s
/// mutex, and `start` and `close` are serialised by `lifecycle`'s.
package final class AlsaCaptureSource: AudioSource, @unchecked Sendable {
    /// The ALSA name asked for: `hw:CARD=Loopback,DEV=1`, `plughw:1,0`, `default`, `null`.
    package let device: String
    /// "<device> (<card's long name>)", or the device alone when it is not a card's.
    package let name: String
    /// What every chunk holds: the negotiated rate and sample format, at most the asked channels.
    package let format: AudioFormat
    /// One period, in frames, as negotiated: about 10 ms (the buffer about 500 ms, so a 300 ms
    /// stall of the process loses nothing).
    package let periodFrames: Int
    /// The driver's ring, in frames (see `periodFrames`).
    package let bufferFrames: Int

    private let pcm: OpaquePointer
    /// Channels the device records; more than `format.channels` when it offers no fewer (only the
    /// first ones are kept).
    private let deviceChannels: Int
    /// alsa-lib's `null` PCM: always full, read at real time by the clock.
    private let pacedByClock: Bool
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let state: Mutex<State>
    private let lifecycle = Mutex(Phase.opened)
    /// Signalled by the capture thread as it ends.
    private let threadEnded = DispatchSemaphore(value: 0)

    private struct State {
        var chunks: [AudioChunk] = []
        var queuedFrames = 0
        var overruns = 0
        /// Whether the queue has overflowed since the last take: one overrun per overflow.
        var dropping = false
        var ended: AudioEnd?
        var level: AudioLevel?
        var estimated: Bool
        var stopRequested = false
        /// CLOCK_MONOTONIC µs when capture started.
        var startedAt: Int64 = 0
    }

    private enum Phase { case opened, capturing, closed }

    /// How long one wait for sound lasts, so `close` stops the thread promptly.
    private static let waitMilliseconds: Int32 = 100
    /// The queue holds at most this much sound; beyond it the oldest is dropped (an overrun).
    private static let queueSeconds = 10

    /// Opens the capture PCM `device` and negotiates: interleaved S16_LE (else S32_LE, else
    /// FLOAT_LE), 48000 Hz (else 44100, else the nearest, at least 8000), `channels` (else stereo,
    /// else mono), a 10 ms period and a 500 ms buffer. Any failure releases the device.
    package init(device: String, channels: Int? = nil) throws(AudioError) {
        AudioDevices.quietLibrary()
        self.device = device
        var handle: OpaquePointer?
        var code: Int32
        // Non-blocking: a blocking open of a busy hw device waits for it instead of failing.
        repeat { code = snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) } while code == -EINTR
        guard code == 0, let handle else { throw AudioError.fromOpen(errno: -code, device: device) }
        let negotiated: Negotiated
        do {
            negotiated = try Self.negotiate(handle, device: device, channels: channels)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        format = negotiated.format
        deviceChannels = negotiated.deviceChannels
        periodFrames = negotiated.periodFrames
        bufferFrames = negotiated.bufferFrames
        pacedByClock = snd_pcm_type(handle) == SND_PCM_TYPE_NULL
        state = Mutex(State(estimated: pacedByClock))
        readBuffer = .allocate(byteCount: negotiated.bufferFrames * negotiated.deviceChannels * negotiated.format.sampleFormat.bytesPerSample,
                               alignment: 16)
        // alsa-lib's null PCM reads nothing into it: without this its "sound" is stale heap memory.
        readBuffer.initializeMemory(as: UInt8.self, repeating: 0)
        name = Self.cardLongName(handle).map { "\(device) (\($0))" } ?? device
    }

    deinit {
        close()
        readBuffer.deallocate()
    }

    // MARK: - AudioSource

    /// Overruns the driver reported (recovered) plus overflows of the 10 s queue.
    package var overruns: Int { state.withLock { $0.overruns } }
    /// Set when the device went away (ENODEV) or failed beyond `snd_pcm_recover`.
    package var ended: AudioEnd? { state.withLock { $0.ended } }
    /// Whether some timestamps came from the clock at the read rather than from the driver.
    package var timestampsAreEstimated: Bool { state.withLock { $0.estimated } }
    /// The level of the last ~100 ms captured; nil before the first 100 ms.
    package var level: AudioLevel? { state.withLock { $0.level } }

    /// Starts the PCM and the capture thread; does nothing once started or closed.
    package func start() throws(AudioError) {
        try lifecycle.withLock { (phase: inout Phase) throws(AudioError) in
            guard phase == .opened else { return }
            let code = snd_pcm_start(pcm)
            if code < 0 { throw AudioError.from(errno: -code, device: device, operation: "snd_pcm_start") }
            state.withLock { $0.startedAt = Self.now() }
            phase = .capturing
            WorkerThread.start(name: "recorder-sound") { [self] in
                capture()
                threadEnded.signal()
            }
        }
    }

    /// Everything captured since the last call; `until` does not apply to a live device.
    package func take(until timestampMicroseconds: Int64) -> [AudioChunk] {
        state.withLock { state in
            let chunks = state.chunks
            state.chunks = []
            state.queuedFrames = 0
            state.dropping = false
            return chunks
        }
    }

    /// Stops the capture thread (waiting for it to end, at most about 100 ms), then closes the PCM.
    /// Safe to call again.
    package func close() {
        lifecycle.withLock { phase in
            switch phase {
            case .closed: return
            case .capturing:
                state.withLock { $0.stopRequested = true }
                threadEnded.wait()
            case .opened: break
            }
            snd_pcm_close(pcm)
            phase = .closed
        }
    }

    // MARK: - The capture thread

    /// Waits, stamps and reads until `close` asks it to stop or the device fails for good.
    private func capture() {
        var statusHandle: OpaquePointer?
        guard snd_pcm_status_malloc(&statusHandle) == 0, let status = statusHandle else {
            end(code: -ENOMEM, operation: "snd_pcm_status_malloc", lastEnd: nil)
            return
        }
        defer { snd_pcm_status_free(status) }
        let rate = Int64(format.sampleRate)
        let startedAt = state.withLock { $0.startedAt }
        var meter = AudioLevelMeter(format: format, windowFrames: format.sampleRate / 10)
        var delivered: Int64 = 0
        var lastEnd: Int64?

        while !state.withLock({ $0.stopRequested }) {
            // The null PCM: what real time has produced since the start and is not read yet.
            var due = Int64.max
            if pacedByClock {
                due = (Self.now() - startedAt) * rate / 1_000_000 - delivered
                if due < Int64(periodFrames) {
                    let missing = (Int64(periodFrames) - due) * 1_000_000 / rate
                    Posix.pause(microseconds: Int(min(max(missing, 1000), 10_000)))
                    continue
                }
            }
            let waited = snd_pcm_wait(pcm, Self.waitMilliseconds)
            if waited < 0 {
                if recover(waited, operation: "snd_pcm_wait", lastEnd: lastEnd) { continue }
                return
            }
            if waited == 0 { continue }
            let statusCode = snd_pcm_status(pcm, status)
            if statusCode < 0 {
                if recover(statusCode, operation: "snd_pcm_status", lastEnd: lastEnd) { continue }
                return
            }
            // A stamp from the driver, else the clock's at the read (estimated). Not for the null
            // PCM: it stamps the moment it was asked, which says nothing about its frames; they are
            // timed by the count below, and its state says estimated from the start.
            var stamp: Int64 = 0
            var estimated = false
            if !pacedByClock {
                stamp = calsa_status_htstamp_us(status)
                if stamp == 0 {
                    stamp = Self.now()
                    estimated = true
                }
            }
            var available = min(Int64(snd_pcm_status_get_avail(status)), due)
            available = min(available, Int64(bufferFrames))
            guard available > 0 else {
                // Ready with nothing to read: a plugin that wakes early would otherwise spin a core.
                Posix.pause(microseconds: 1000)
                continue
            }
            let read = snd_pcm_readi(pcm, readBuffer.baseAddress, snd_pcm_uframes_t(available))
            if read < 0 {
                if recover(Int32(read), operation: "snd_pcm_readi", lastEnd: lastEnd) { continue }
                return
            }
            guard read > 0 else { continue }
            // The null PCM's frames are real time's since the start, in order: the chunk begins
            // where the frames before it ended. (Its stamp is taken after `due`, so a thread held
            // up between the two put the chunk late by as long, and the next one back before it.)
            let first = pacedByClock ? startedAt + delivered * 1_000_000 / rate : stamp - available * 1_000_000 / rate
            let bytes = keptSamples(frames: Int(read))
            let level = bytes.withUnsafeBytes { meter.add($0, frames: Int(read)) }
            delivered += Int64(read)
            lastEnd = first + Int64(read) * 1_000_000 / rate
            enqueue(AudioChunk(bytes: bytes, frames: Int(read), timestampMicroseconds: first), estimated: estimated, level: level)
        }
    }

    /// The frames read, in the source's format: the first `format.channels` of each device frame.
    private func keptSamples(frames: Int) -> [UInt8] {
        let sampleBytes = format.sampleFormat.bytesPerSample
        let deviceFrameBytes = deviceChannels * sampleBytes
        if deviceChannels == format.channels {
            return Array(UnsafeRawBufferPointer(rebasing: readBuffer[0..<frames * deviceFrameBytes]))
        }
        let keptBytes = format.bytesPerFrame
        return [UInt8](unsafeUninitializedCapacity: frames * keptBytes) { output, count in
            for frame in 0..<frames {
                let from = readBuffer.baseAddress! + frame * deviceFrameBytes
                UnsafeMutableRawPointer(output.baseAddress! + frame * keptBytes).copyMemory(from: from, byteCount: keptBytes)
            }
            count = frames * keptBytes
        }
    }

    private func enqueue(_ chunk: AudioChunk, estimated: Bool, level: AudioLevel?) {
        let limit = Self.queueSeconds * format.sampleRate
        state.withLock { state in
            state.chunks.append(chunk)
            state.queuedFrames += chunk.frames
            if estimated { state.estimated = true }
            if let level { state.level = level }
            var dropped = 0
            while state.queuedFrames > limit && dropped < state.chunks.count - 1 {
                state.queuedFrames -= state.chunks[dropped].frames
                dropped += 1
            }
            guard dropped > 0 else { return }
            state.chunks.removeFirst(dropped)
            if !state.dropping {
                state.overruns += 1
                state.dropping = true
            }
        }
    }

    /// Handles a failed call (`code` is -errno): retries EINTR and EAGAIN, recovers an overrun or a
    /// suspend and counts it (the next chunk's timestamp shows the gap), and ends capture on
    /// anything else. Returns whether to go on.
    private func recover(_ code: Int32, operation: String, lastEnd: Int64?) -> Bool {
        if code == -EINTR || code == -EAGAIN { return true }
        let fixed = snd_pcm_recover(pcm, code, 1)
        guard fixed == 0, code == -EPIPE || code == -ESTRPIPE else {
            end(code: fixed < 0 ? fixed : code, operation: operation, lastEnd: lastEnd)
            return false
        }
        state.withLock { $0.overruns += 1 }
        // recover leaves a capture stream prepared (a resumed one runs already): start it again.
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
            let started = snd_pcm_start(pcm)
            if started < 0 {
                end(code: started, operation: "snd_pcm_start", lastEnd: lastEnd)
                return false
            }
        }
        return true
    }

    private func end(code: Int32, operation: String, lastEnd: Int64?) {
        let errno = -code
        let stop: AudioStop = errno == ENODEV ? .disconnected : .failed(operation: operation, errno: errno)
        let at = lastEnd ?? Self.now()
        state.withLock { $0.ended = AudioEnd(stop: stop, atMicroseconds: at) }
    }

    /// CLOCK_MONOTONIC in microseconds, the clock of the driver's timestamps.
    private static func now() -> Int64 {
        MonotonicClock.nowMicroseconds()
    }
}
