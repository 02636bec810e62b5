package import MediaValues

/// How captured sound is laid out: interleaved samples of one format.
package enum SampleFormat: String, Sendable, Hashable {
    case s16 = "s16"
    case s32 = "s32"
    case float32 = "f32"

    package var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s32, .float32: 4
        }
    }
}

/// What a sound source delivers, fixed once it is open.
package struct AudioFormat: Sendable, Hashable {
    package var sampleRate: Int
    package var channels: Int
    package var sampleFormat: SampleFormat

    package init(sampleRate: Int, channels: Int, sampleFormat: SampleFormat) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    /// Bytes of one frame (one sample of every channel).
    package var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }
}

/// A run of captured sound and when its first sample was taken.
package struct AudioChunk: Sendable {
    /// Interleaved samples in the source's `AudioFormat`; `frames * bytesPerFrame` bytes.
    package var bytes: [UInt8]
    package var frames: Int
    /// When the first sample was taken, in microseconds on CLOCK_MONOTONIC (the clock of V4L2
    /// buffer timestamps), from the driver's own timestamp where it gives one.
    package var timestampMicroseconds: Int64

    package init(bytes: [UInt8], frames: Int, timestampMicroseconds: Int64) {
        self.bytes = bytes
        self.frames = frames
        self.timestampMicroseconds = timestampMicroseconds
    }
}

/// Why a source's sound ended before the shot did, and when.
package struct AudioEnd: Sendable, Equatable {
    /// Why: the device gone, or a call that failed.
    package var stop: AudioStop
    /// The CLOCK_MONOTONIC time of the last sample delivered, in microseconds.
    package var atMicroseconds: Int64

    package init(stop: AudioStop, atMicroseconds: Int64) {
        self.stop = stop
        self.atMicroseconds = atMicroseconds
    }
}

/// Something that produces sound for a shot: a microphone (ALSA) or the test pattern's beep.
///
/// The shot's thread polls: after each video frame it takes what sound has arrived. A live source
/// captures on a thread of its own between polls, so a slow poll never loses sound to the driver
/// unless the source's own queue overflows (counted as an overrun).
package protocol AudioSource: AnyObject {
    var format: AudioFormat { get }
    /// A short human name: "hw:CARD=C920,DEV=0 (HD Pro Webcam C920)", "test beep".
    var name: String { get }
    /// Starts capturing. Sound taken before this is not delivered.
    func start() throws(AudioError)
    /// The sound captured since the last call, up to `timestampMicroseconds` where the source can
    /// tell (a generated source makes exactly that much); never blocks.
    func take(until timestampMicroseconds: Int64) -> [AudioChunk]
    /// Overruns so far: sound the driver or the source's queue lost because it was not read in time.
    var overruns: Int { get }
    /// Set once the sound ended by itself (the device went away); nil while it goes on.
    var ended: AudioEnd? { get }
    /// Stops capturing and releases the device. Called once; safe after a failure.
    func close()
}
