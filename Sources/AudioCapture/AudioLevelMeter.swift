/// Adds up samples into an `AudioLevel`, window by window (on the capture thread).
package struct AudioLevelMeter: Sendable {
    private var peak = 0.0
    private var sumOfSquares = 0.0
    private var samples = 0
    private var frames = 0
    /// Frames per window (~100 ms).
    private let window: Int
    private let format: AudioFormat

    /// `windowFrames`: how many frames make one level (~100 ms: a tenth of the rate).
    package init(format: AudioFormat, windowFrames: Int) {
        self.format = format
        self.window = max(1, windowFrames)
    }

    /// Adds interleaved samples in the meter's format; returns the level each time a window fills.
    package mutating func add(_ bytes: UnsafeRawBufferPointer, frames count: Int) -> AudioLevel? {
        let total = min(count * format.channels, bytes.count / format.sampleFormat.bytesPerSample)
        for index in 0..<total {
            let value: Double
            switch format.sampleFormat {
            case .s16: value = Double(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32768
            case .s32: value = Double(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))) / 2_147_483_648
            case .float32:
                value = Double(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))))
            }
            let magnitude = Swift.min(abs(value), 1)
            peak = Swift.max(peak, magnitude)
            sumOfSquares += magnitude * magnitude
        }
        samples += total
        frames += count
        guard frames >= window else { return nil }
        let level = AudioLevel(peak: peak, rms: samples > 0 ? (sumOfSquares / Double(samples)).squareRoot() : 0)
        peak = 0
        sumOfSquares = 0
        samples = 0
        frames = 0
        return level
    }
}

extension AudioLevelMeter {
    /// The level of every window `chunk` completes, in order: a chunk longer than a window (the
    /// test beep hands over as much as was asked) is measured window by window, not as one.
    package mutating func levels(of chunk: AudioChunk) -> [AudioLevel] {
        let bytesPerFrame = format.bytesPerFrame
        var levels: [AudioLevel] = []
        chunk.bytes.withUnsafeBytes { bytes in
            var frame = 0
            while frame < chunk.frames {
                let count = min(window, chunk.frames - frame)
                let slice = UnsafeRawBufferPointer(rebasing: bytes[(frame * bytesPerFrame)..<min((frame + count) * bytesPerFrame, bytes.count)])
                if let level = add(slice, frames: count) { levels.append(level) }
                frame += count
            }
        }
        return levels
    }
}
