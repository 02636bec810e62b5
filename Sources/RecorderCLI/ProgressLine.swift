import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import Shooting
import Synchronization
import SystemSupport

/// A live "elapsed/total, fps, drops" line on a terminal, redrawn a few times a second.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let lastDraw = Atomic<Int64>(0)

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: ShotProgress) {
        guard enabled else { return }
        let now = MonotonicClock.nowMicroseconds()
        guard now - lastDraw.load(ordering: .relaxed) >= 200_000 else { return }
        lastDraw.store(now, ordering: .relaxed)
        let line = String(cFormat: "\r  %5.1f/%.1f s  %5.1f fps  %ld frames  %ld dropped ",
                          p.elapsedSeconds, p.totalSeconds, p.framesPerSecond, p.frames, p.dropped)
        Descriptors.printError(line)
    }

    func finish() {
        if enabled && lastDraw.load(ordering: .relaxed) != 0 { Descriptors.printError("\n") }
    }
}
