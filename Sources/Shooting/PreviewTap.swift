import Synchronization
package import SystemSupport
package import VideoCapture

/// The latest camera picture, kept for the kiosk's live preview.
///
/// The capture loop offers every frame; a copy is taken at most every `interval` microseconds, so
/// a 30 fps camera costs a few memcpys a second, and nothing is encoded until somebody asks.
package final class PreviewTap: Sendable {
    /// A raw frame copied out of the source's buffer.
    package struct Picture: Sendable {
        package let format: CaptureFormat
        package let bytes: [UInt8]
        /// When it was copied, on `MonotonicClock`.
        package let copiedAtMicroseconds: Int64
        /// Changes with every new picture, so a reader can tell it has seen this one.
        package let serial: UInt64
    }

    private let latest = Mutex<Picture?>(nil)
    private let lastCopy = Atomic<Int64>(0)
    private let serial = Atomic<UInt64>(0)
    package let intervalMicroseconds: Int64
    /// Signalled with each new picture (and when they are cleared), so a viewer sleeps until then.
    package let changed = ChangeSignal()

    /// 15 pictures a second: the live mirror's rate.
    package init(intervalMicroseconds: Int64 = 66_000) {
        self.intervalMicroseconds = intervalMicroseconds
    }

    /// Called by the capture loop with each frame; cheap when it is not yet time for a copy.
    package func offer(_ frame: borrowing VideoFrame) {
        let now = MonotonicClock.nowMicroseconds()
        guard now - lastCopy.load(ordering: .relaxed) >= intervalMicroseconds, !frame.isDamaged else { return }
        lastCopy.store(now, ordering: .relaxed)
        let number = serial.add(1, ordering: .relaxed).newValue
        let picture = Picture(format: frame.format, bytes: frame.withBytes { Array($0) }, copiedAtMicroseconds: now, serial: number)
        latest.withLock { $0 = picture }
        changed.signal()
    }

    /// The newest picture if it is at most `maximumAge` seconds old.
    package func picture(maximumAge: Double = 3) -> Picture? {
        let now = MonotonicClock.nowMicroseconds()
        return latest.withLock { picture in
            guard let picture, Double(now - picture.copiedAtMicroseconds) <= maximumAge * 1_000_000 else { return nil }
            return picture
        }
    }

    package func clear() {
        latest.withLock { $0 = nil }
        changed.signal()
    }
}
